"""The public surface is small and deliberate."""

import structurer


def test_exported_members() -> None:
    assert structurer.__all__ == sorted(structurer.__all__)
    assert structurer.__all__ == [
        "Lexicon", "Settings", "SiteRules", "StructurerError", "__version__", "dump_rules",
        "load_lexicon", "load_rules", "save_rules", "validate_file",
    ]
    for name in structurer.__all__:
        assert hasattr(structurer, name)


def test_error_tree() -> None:
    from structurer import errors

    assert issubclass(errors.RenderTimeout, errors.FetchError)
    assert issubclass(errors.NoRepeatedBlock, errors.AnalysisError)
    assert issubclass(errors.RuleValidationError, errors.RuleError)
    for name in ("FetchError", "AnalysisError", "RuleError", "FrontierError"):
        assert issubclass(getattr(errors, name), errors.StructurerError)
    error = errors.FetchError("connection refused", url="http://127.0.0.1:9/")
    assert str(error) == "http://127.0.0.1:9/: connection refused"
