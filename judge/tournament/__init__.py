"""The tournament documents: MTR, IPG and JAR in English, the project's Italian, and their checks."""
