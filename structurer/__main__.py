"""``python -m structurer`` runs the command-line interface."""

from structurer.cli import main

raise SystemExit(main())
