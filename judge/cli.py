"""The `judge` command line. Each area registers its own commands here."""

import click


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="judge")
def main() -> None:
    """Regolamento completo di Magic in italiano e assistente per giudici."""


from judge.corpus.adoption_cli import COMMANDS as _adoption_commands  # noqa: E402
from judge.corpus.cli import COMMANDS as _corpus_commands  # noqa: E402
from judge.corpus.edition_cli import COMMANDS as _edition_commands  # noqa: E402
from judge.web.serve_cli import serve  # noqa: E402

for _command in [*_corpus_commands, *_edition_commands, *_adoption_commands]:
    main.add_command(_command)
main.add_command(serve)

from judge.search.cli import cerca  # noqa: E402

main.add_command(cerca)

from judge.engine.play.cli import scenario  # noqa: E402

main.add_command(scenario)

from judge.corpus.translation_cli import traduzione  # noqa: E402

main.add_command(traduzione)

from judge.store.cli import archivio  # noqa: E402

main.add_command(archivio)

from judge.tournament.cli import COMMANDS as _tournament_commands  # noqa: E402

for _command in _tournament_commands:
    main.add_command(_command)
