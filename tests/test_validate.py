"""Malformed files: each kind of mistake gives one clear line naming file, line and key.

The table lists mistakes a person makes when editing a rule file or a lexicon
by hand. Each case is run through the library (``validate_file``), through
``structurer validate`` and through loading, and must come out as one line
with exit code 2 and no traceback.
"""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

import pytest

from structurer.cli import main
from structurer.errors import RuleError
from structurer.lexicon import load_lexicon
from structurer.rules import load_rules
from structurer.validate import validate_file

ROOT = Path(__file__).resolve().parent.parent
RULES = (Path(__file__).parent / "fixtures" / "rules" / "shop.yaml").read_text()
LEXICON = (ROOT / "templates" / "ecommerce.yaml").read_text()
ITEMS = "    item_xpath: //main//ul[contains(@class, 'products')]/li[@class='product']"


def _edit(text: str, old: str, new: str) -> str:
    assert old in text, old
    return text.replace(old, new, 1)


# (id, base text, edit, expected text in message, expected line, expected key path).
# The expected line EDIT means "the line the edit changed"; {EDIT} in the message too.
EDIT = -1
CASES = [
    ("yaml-syntax", RULES, ("samples: [Footwear, Trail Running, Hiking Boots]",
                            "samples: [Footwear, Trail Running"),
     "(while parsing a flow sequence started on line {EDIT})", None, None),
    ("bad-indent", RULES, ("    item_xpath: //main", "      item_xpath: //main"),
     "YAML syntax error", None, None),
    ("duplicate-key", RULES, ("    confidence: 0.93\n", "    confidence: 0.93\n    confidence: 0.5\n"),
     "duplicate key 'confidence' (first given on line {EDIT})", None, None),
    ("unknown-key-typo", RULES, ("        xpath: .//h2[@class='product-name']/a",
                                 "        xpth: .//h2[@class='product-name']/a"),
     "unknown key 'xpth' (did you mean 'xpath'?)", EDIT, "levels.list.fields.name.xpth"),
    ("missing-required", RULES, ("    item_xpath: //main//ul[contains(@class, 'products')]/li[@class='product']\n", ""),
     "required key is missing", "  list:", "levels.list.item_xpath"),
    ("wrong-type", RULES, ("        confidence: 0.96", "        confidence: high"),
     "valid number", EDIT, "levels.list.fields.name.confidence"),
    ("out-of-range", RULES, ("        confidence: 0.91", "        confidence: 1.5"),
     "less than or equal to 1", EDIT, "levels.list.fields.price.confidence"),
    ("bad-xpath", RULES, ("      name: {xpath: //h1,", "      name: {xpath: '//h1[@class=',"),
     "invalid XPath", EDIT, "levels.detail.fields.name.xpath"),
    ("bad-kind", RULES, ("        kind: money\n        post: [strip]", "        kind: moneyy\n        post: [strip]"),
     "Input should be 'text', 'money'", EDIT, "levels.list.fields.price.kind"),
    ("bad-render-mode", RULES, ("    render: {mode: static, decided_by: auto",
                                "    render: {mode: headless, decided_by: auto"),
     "'static' or 'browser'", EDIT, "levels.list.render.mode"),
    ("bad-regex", RULES, (r"post: ['regex:([A-Z]{2}-\d+)']", r"post: ['regex:([A-Z]{2}-\d+']"),
     "invalid regex", EDIT, "levels.detail.fields.sku.post.0"),
    ("unknown-post-step", RULES, ("        post: [strip]", "        post: [trim]"),
     "unknown post step 'trim'", EDIT, "levels.list.fields.price.post.0"),
    ("schema-version", RULES, ("schema_version: 1", "schema_version: 7"),
     "unsupported schema_version 7", EDIT, "schema_version"),
    ("relative-url", RULES, ("start_url: http://127.0.0.1:8001/", "start_url: /shop/"),
     "must be an absolute http(s) URL", EDIT, "start_url"),
    ("python-tag", RULES, ("generator: structurer 0.1.0", "generator: !!python/object/apply:os.system [ls]"),
     "unsupported tag", EDIT, None),
    ("not-a-mapping", "- just\n- a list\n", None, "expected a mapping", 1, None),
    ("empty-file", "   \n", None, "file is empty", None, None),
    ("unknown-kind", "hello: world\n", None, "cannot tell whether", 1, None),
    ("lexicon-bad-weight", LEXICON, ("    words: {name: 8, title: 8,", "    words: {name: -8, title: 8,"),
     "weights must be > 0", EDIT, "fields.name.words.name"),
    ("lexicon-bad-structure", LEXICON, ("  ul/li: 1.0", "  ul li: 1.0"),
     "must be 'parent/child' tags", EDIT, "list_structures.ul li"),
    ("lexicon-threshold", LEXICON, ("  alpha: 0.6 ", "  alpha: 7.5 "),
     "less than or equal to 1", EDIT, "thresholds.alpha"),
    ("lexicon-level", LEXICON, ("    level: detail\n    description: The product's descriptive",
                                "    level: page\n    description: The product's descriptive"),
     "'list', 'detail' or 'both'", EDIT, "fields.description.level"),
    # what the crawler refuses, or cannot afford, is refused when the file is read
    ("unknown-function", RULES, ("      name: {xpath: //h1,", "      name: {xpath: 'foo(//h1)',"),
     "unknown function foo()", EDIT, "levels.detail.fields.name.xpath"),
    ("xpath-variable", RULES, ("      name: {xpath: //h1,", "      name: {xpath: '//h1[$x]',"),
     "XPath variables ($name) are not supported", EDIT, "levels.detail.fields.name.xpath"),
    ("item-xpath-number", RULES, (ITEMS, "    item_xpath: count(//li)"),
     "gives a number; it must select elements", EDIT, "levels.list.item_xpath"),
    ("item-xpath-string", RULES, (ITEMS, "    item_xpath: string(//li)"),
     "gives a string; it must select elements", EDIT, "levels.list.item_xpath"),
    ("item-xpath-attributes", RULES, (ITEMS, "    item_xpath: //li/@id"),
     "selects attributes; it must select elements", EDIT, "levels.list.item_xpath"),
    ("costly-xpath", RULES, ("      name: {xpath: //h1,", "      name: {xpath: '//*[count(//*) > 1]',"),
     "XPath is too costly to replay: '//*' is an absolute path", EDIT,
     "levels.detail.fields.name.xpath"),
    ("costly-item-field", RULES, ("        xpath: .//h2[@class='product-name']/a",
                                  "        xpath: ancestor::ul//h2"),
     "goes up and then down again, which can reach the whole page, for every list item", EDIT,
     "levels.list.fields.name.xpath"),
    ("site-port", RULES, ("site: 127.0.0.1:8001", "site: 127.0.0.1:99999"),
     "port '99999' of '127.0.0.1:99999' must be a number from 1 to 65535", EDIT, "site"),
    ("start-url-port", RULES, ("start_url: http://127.0.0.1:8001/", "start_url: http://127.0.0.1:99999/"),
     "must be a number from 1 to 65535", EDIT, "start_url"),
    ("start-url-password", RULES, ("start_url: http://127.0.0.1:8001/",
                                   "start_url: http://user:secret@127.0.0.1:8001/"),
     "must not hold a user name or password", EDIT, "start_url"),
    ("hosts-port", RULES, ("hosts: [cdn.127.0.0.1.nip.invalid]", "hosts: ['cdn.example:99999']"),
     "must be a number from 1 to 65535", EDIT, "hosts.0"),
    ("hosts-not-a-host", RULES, ("hosts: [cdn.127.0.0.1.nip.invalid]", "hosts: ['1']"),
     "'1' is not a host name or an IP address", EDIT, "hosts.0"),
    ("start-url-elsewhere", RULES, ("start_url: http://127.0.0.1:8001/",
                                    "start_url: http://shop.example:8001/"),
     "site '127.0.0.1:8001' and the host of start_url", "site: 127.0.0.1:8001", "site"),
    ("nan-confidence", RULES, ("        confidence: 0.91", "        confidence: .nan"),
     "finite number", EDIT, "levels.list.fields.price.confidence"),
    ("backtracking-regex", RULES, (r"post: ['regex:([A-Z]{2}-\d+)']", "post: ['regex:(a+)+$']"),
     "regex '(a+)+$' can take very long", EDIT, "levels.detail.fields.sku.post.0"),
    ("deep-yaml", "levels: " + "[" * 600 + "]" * 600 + "\n", None,
     "nested more than 64 levels deep", 1, None),
    ("lexicon-nan-weight", LEXICON, ("    words: {name: 8, title: 8,", "    words: {name: .nan, title: 8,"),
     "finite number", EDIT, "fields.name.words.name"),
    ("lexicon-inf-weight", LEXICON, ("    words: {name: 8, title: 8,", "    words: {name: .inf, title: 8,"),
     "finite number", EDIT, "fields.name.words.name"),
]


@pytest.fixture(params=CASES, ids=[c[0] for c in CASES])
def broken(request: pytest.FixtureRequest, tmp_path: Path) -> tuple[Path, str, int | None, str | None]:
    _, base, edit, expected, line, loc = request.param
    text = base if edit is None else _edit(base, *edit)
    if edit is not None:
        edited = text[:text.index(edit[1])].count("\n") + 1 + (edit[1][:1] == "\n")
        line = edited if line == EDIT else line
        expected = expected.replace("{EDIT}", str(edited))
    if isinstance(line, str):
        line = text[:text.index(line)].count("\n") + 1
    path = tmp_path / "edited.yaml"
    path.write_text(text, encoding="utf-8")
    return path, expected, line, loc


def test_validate_names_file_line_and_key(broken: tuple[Path, str, int | None, str | None]) -> None:
    path, expected, line, loc = broken
    report = validate_file(path)
    assert not report.ok
    first = report.errors[0]
    assert expected in str(first)
    assert str(first).startswith(str(path))
    if line is not None:
        assert getattr(first, "line", None) == line, str(first)
    if loc is not None:
        assert getattr(first, "loc", None) == loc, str(first)
    assert "\n" not in str(first)


def test_cli_prints_one_line_and_exits_2(broken: tuple[Path, str, int | None, str | None]) -> None:
    path, expected, _, _ = broken
    done = subprocess.run([sys.executable, "-m", "structurer", "validate", str(path)],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert "Traceback" not in done.stderr
    lines = done.stderr.strip().splitlines()
    assert lines and all(line.startswith(str(path)) for line in lines)
    assert expected in lines[0]


def test_loading_raises_one_line_error(broken: tuple[Path, str, int | None, str | None]) -> None:
    path, expected, _, _ = broken
    loader = load_lexicon if "fields:" in path.read_text() and "levels:" not in path.read_text() \
        else load_rules
    with pytest.raises(RuleError) as info:
        loader(path)
    if "cannot tell" not in expected:
        assert expected in str(info.value)
    assert "\n" not in str(info.value)


def test_not_utf8(tmp_path: Path) -> None:
    path = tmp_path / "latin1.yaml"
    path.write_bytes("name: café\nfields: {}\n".encode("latin-1"))
    report = validate_file(path)
    assert "not UTF-8" in str(report.errors[0]) and report.errors[0].line == 1  # type: ignore[attr-defined]


def test_missing_file_and_directory(tmp_path: Path) -> None:
    assert "no such file" in str(validate_file(tmp_path / "nope.yaml").errors[0])
    assert "is a directory" in str(validate_file(tmp_path).errors[0])


def test_all_problems_are_listed() -> None:
    text = _edit(_edit(RULES, "        confidence: 0.91", "        confidence: 1.5"),
                 "        confidence: 0.96", "        confidence: high")
    path = Path(__file__).parent / "fixtures" / "rules" / "shop.yaml"
    tmp = path.with_name("two-errors.tmp.yaml")
    try:
        tmp.write_text(text)
        report = validate_file(tmp)
        lines = text.splitlines()
        expected = [lines.index("        confidence: high") + 1, lines.index("        confidence: 1.5") + 1]
        assert [getattr(e, "line", None) for e in report.errors] == expected
    finally:
        tmp.unlink()


def test_good_files_are_ok() -> None:
    for path in [ROOT / "templates" / "ecommerce.yaml", ROOT / "templates" / "news.yaml",
                 Path(__file__).parent / "fixtures" / "rules" / "shop.yaml"]:
        report = validate_file(path)
        assert report.ok, report.errors
    done = subprocess.run([sys.executable, "-m", "structurer", "validate",
                           str(ROOT / "templates" / "news.yaml"),
                           str(Path(__file__).parent / "fixtures" / "rules" / "shop.yaml")],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0
    assert done.stdout.splitlines()[0].endswith("news.yaml: ok (lexicon)")
    assert done.stdout.splitlines()[1].endswith("shop.yaml: ok (rule file)")


def test_a_lexicon_alone_builds_no_rule_file_model() -> None:
    """``validate LEXICON`` builds the lexicon's pydantic models only: building the rule
    file's as well was a third of the command's time."""
    rules = Path(__file__).parent / "fixtures" / "rules" / "shop.yaml"
    code = ("import sys\nfrom structurer.validate import validate_file\n"
            f"assert validate_file({str(ROOT / 'templates' / 'news.yaml')!r}).ok\n"
            "print('structurer.rules.model' in sys.modules, end=' ')\n"
            f"assert validate_file({str(rules)!r}).ok\n"
            "print('structurer.rules.model' in sys.modules)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=60, check=True)
    assert done.stdout.split() == ["False", "True"]


def test_rules_are_checked_against_their_lexicon(tmp_path: Path) -> None:
    from structurer.lexicon import load_lexicon

    current = load_lexicon("ecommerce").content_hash()
    text = RULES.replace("sha256:0123456789abcdef", current)
    path = tmp_path / "shop.yaml"
    path.write_text(text)
    assert validate_file(path).warnings == []
    path.write_text(_edit(text, "      name: {xpath: //h1,", "      nmae: {xpath: //h1,"))
    [warning] = validate_file(path).warnings
    assert "field 'nmae' is not in lexicon 'ecommerce' (did you mean 'name'?)" in warning
    path.write_text(RULES)
    report = validate_file(path)
    assert report.ok and "changed since these rules were learned" in report.warnings[0]
    done = subprocess.run([sys.executable, "-m", "structurer", "validate", str(path)],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and done.stderr.startswith("warning: ")


def test_a_lexicon_validated_is_not_parsed_again_for_the_rules(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``validate LEXICON RULES`` parses the large lexicon once; an edited lexicon is read
    anew (the memo is keyed by the file's text)."""
    from structurer import yamlio

    lexicon = tmp_path / "mine.yaml"
    lexicon.write_text(LEXICON.replace("name: ecommerce", "name: mine", 1))
    rules = tmp_path / "shop.yaml"
    rules.write_text(_edit(RULES, "name: ecommerce", "name: mine\n  path: mine.yaml"))
    parsed: list[str] = []
    real_parse = yamlio.parse
    monkeypatch.setattr(yamlio, "parse", lambda text, file: parsed.append(file) or
                        real_parse(text, file))
    assert validate_file(lexicon).ok
    first = validate_file(rules)
    assert first.ok and parsed == [str(lexicon), str(rules)]
    assert "lexicon 'mine' changed since these rules were learned" in first.warnings[0]
    lexicon.write_text(_edit(lexicon.read_text(), "  name:\n    kind: text",
                             "  name:\n    kind: html"))
    warnings = validate_file(rules).warnings
    assert parsed[2:] == [str(rules), str(lexicon)]
    assert any("name: kind 'text' differs from the lexicon's 'html'" in w for w in warnings)


def test_files_too_large_are_refused_at_once(tmp_path: Path) -> None:
    """A 6 MB file is not read, let alone parsed: one line, quickly, from every loader."""
    big = tmp_path / "big.yaml"
    big.write_text(RULES + "# " + "x" * 6_000_000 + "\n", encoding="utf-8")
    started = time.monotonic()
    report = validate_file(big)
    for loader in (load_rules, load_lexicon):
        with pytest.raises(RuleError, match="larger than 5,000,000 bytes"):
            loader(big)
    assert time.monotonic() - started < 5
    assert not report.ok and "larger than 5,000,000 bytes" in str(report.errors[0])


@pytest.mark.parametrize("command", ["validate", "crawl", "review", "extract", "analyze",
                                     "extract-page"])
def test_deep_yaml_is_one_line_for_every_command(command: str, tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    """YAML nested 600 levels deep used to stop each loader with a RecursionError."""
    deep = tmp_path / "deep.yaml"
    deep.write_text("levels: " + "[" * 600 + "]" * 600 + "\n", encoding="utf-8")
    page = tmp_path / "page.html"
    page.write_text("<html><body><h1>x</h1></body></html>")
    args = {
        "validate": [str(deep)],
        "crawl": [str(deep), "--out", str(tmp_path / "out.jsonl")],
        "review": [str(deep), "--out", str(tmp_path / "review.html")],
        "extract": [str(deep), str(page)],
        "analyze": ["--template", str(deep), "--level", "detail", "--pages", str(page), str(page),
                    "--out", str(tmp_path)],
        "extract-page": [str(page), "--template", str(deep)],
    }[command]
    assert main([command, *args]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "nested more than 64 levels deep" in err
    assert str(deep) in err
