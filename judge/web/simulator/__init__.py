"""The scenario simulator on the web: the builder, the stepper and their JSON API."""
