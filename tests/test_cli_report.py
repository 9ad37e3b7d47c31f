"""``readsim-eval report`` (reference section 9.9): the page is self-contained (no script, no
network), every text from the inputs is escaped, and the numbers it shows are readsim-eval's
(parsed back from the page's tables): compare's means, intervals and pairs, compare --per-topic's
values and differences, the loss split's means of ``readsim-eval loss``'s topic rows, the files'
checksums. On the real data, five runs with the collection, and the page opened in a real
browser (headless Chromium; skipped without it, except under CI=true)."""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess

import lxml.html
import pytest

from readsim.core.report_numbers import format_number, format_signed

from helpers.cli import records, run_cli


def page(path):
    return lxml.html.fromstring(path.read_text(encoding="utf-8"))


def cells(doc, table: str, measure: str | None = None) -> dict[str, dict[str, str]]:
    """Rows of a report table (by ``data-run`` or ``data-topic``): class -> text."""
    where = f"//table[@class='{table}'" + (f" and @data-measure='{measure}'" if measure else "") + "]"
    out = {}
    for tr in doc.xpath(where + "/tbody/tr"):
        key = tr.get("data-run") or tr.get("data-topic")
        out[key] = {(td.get("class") or "") + (":" + td.get("data-run") if td.get("data-run") else ""): td.text_content()
                    for td in tr.xpath("td")}
    return out


def self_contained(text: str) -> None:
    doc = lxml.html.fromstring(text)
    assert doc.xpath("//script") == [] and doc.xpath("//@*[starts-with(name(), 'on')]") == []
    links = doc.xpath("//@src | //@href | //*[local-name()='image']/@*[local-name()='href']")
    assert all(link.startswith("#") for link in links), [link for link in links if not link.startswith("#")]
    styles = " ".join(doc.xpath("//style/text() | //@style"))
    assert "url(" not in styles.replace("url(#", "") and "@import" not in styles  # nothing fetched by the CSS


# -- hand-worked: good AgP (1, 1, 1), mid (1/2, 1, 1/2), bad (0, 0, 0) -----------------------------------


def test_hand_worked_report_numbers_and_provenance(files, tmp_path):
    out = tmp_path / "report.html"
    code, _, err = run_cli("report", files["q"], files["bad"], files["mid"], files["good"], "--test", "t", "-o", out)
    assert code == 0, err
    assert "readsim-eval report: wrote" in err and "3 runs on 3 topics, 1 measure" in err
    text = out.read_text(encoding="utf-8")
    self_contained(text)
    doc = lxml.html.fromstring(text)
    means = cells(doc, "means", "AgP/F(0.25)")
    # means by hand: good 1, mid 2/3, bad 0; every run's t interval: good and bad constant, mid 2/3 +- ...
    assert {r: (v["rank"], v["mean"]) for r, v in means.items()} == {"good": ("1", "1.0000"), "mid": ("2", "0.6667"),
                                                                      "bad": ("3", "0.0000")}
    assert (means["good"]["low"], means["good"]["high"]) == ("1.0000", "1.0000")
    # the per-topic table: mid - good = (-1/2, 0, -1/2), bad - good = -1 everywhere; topic 2 first
    topics = cells(doc, "topics", "AgP/F(0.25)")
    assert list(topics) == ["2", "1", "3"]
    assert topics["1"]["diff:mid"] == "-0.5000" and topics["2"]["diff:bad"] == "-1.0000"
    assert topics["1"]["value:mid"] == "0.5000"
    # the loss split: good is perfect (nothing to gain); bad ranks no relevant article: all is unretrieved
    loss = cells(doc, "loss", "AgP/F(0.25)")
    assert (loss["good"]["as_is"], loss["good"]["browse"], loss["good"]["unretrieved"]) == ("1.0000", "0.0000", "0.0000")
    assert (loss["bad"]["as_is"], loss["bad"]["unretrieved"], loss["bad"]["perfect"]) == ("0.0000", "1.0000", "1.0000")
    # provenance: every input with its size and SHA-256
    rows = {tr.xpath("td")[1].text_content(): [td.text_content() for td in tr.xpath("td")]
            for tr in doc.xpath("//table[@class='files']/tbody/tr")}
    for name in ("q", "bad", "mid", "good"):
        data = files[name].read_bytes()
        assert rows[str(files[name])][2:] == [f"{len(data):,} bytes", hashlib.sha256(data).hexdigest()]
    provenance = {tr.xpath("th")[0].text_content(): tr.xpath("td")[0].text_content()
                  for tr in doc.xpath("//table[@class='provenance']/tbody/tr")}
    assert provenance["readsim"] == "0.1.0" and provenance["measures"] == "AgP/F(0.25)"
    assert provenance["command"].startswith("readsim-eval report ") and "--test t" in provenance["command"]
    assert "no collection given" in text


def test_the_numbers_are_compare_s_and_loss_s(files, tmp_path):
    out = tmp_path / "report.html"
    argv = [files["q"], files["bad"], files["mid"], files["good"], "-m", "AgP/F(0.25)", "-m", "MAP"]
    assert run_cli("report", *argv, "-o", out)[0] == 0
    doc = page(out)
    code, text, _ = run_cli("compare", *argv, "--no-doc", "--per-topic", "--format", "jsonl")
    for r in records(text, "mean"):
        row = cells(doc, "means", r["measure"])[r["run"]]
        assert (row["mean"], row["low"], row["high"]) == tuple(format_number(r[k]) for k in ("mean", "ci_low", "ci_high"))
    for r in records(text, "pair"):
        rows = doc.xpath(f"//table[@class='pairs' and @data-measure='{r['measure']}']/tbody/tr")
        shown = {(tr.xpath("td")[0].text_content(), tr.xpath("td")[1].text_content()): tr for tr in rows}
        tr = shown[(r["better"], r["worse"])]
        assert tr.xpath("td[@class='diff']")[0].text_content() == format_signed(r["diff"])
        assert tr.xpath("td[@class='ci_low']")[0].text_content() == format_signed(r["ci_low"])
        assert tr.xpath("td[@class='ci_high']")[0].text_content() == format_signed(r["ci_high"])
        assert tr.xpath("td[@class='wtl']")[0].text_content() == f"{r['wins']}/{r['ties']}/{r['losses']}"
    for r in records(text, "topic"):
        if r["measure"] == "AgP/F(0.25)":
            assert cells(doc, "topics")[r["topic"]][f"value:{r['run']}"] == format_number(r["value"])
    for run in ("bad", "mid", "good"):
        code, text, _ = run_cli("loss", files["q"], files[run], "--format", "jsonl")
        rows = records(text, "topic")
        mean = sum(r["fetch"] for r in rows) / len(rows)
        assert cells(doc, "loss")[run]["fetch"] == format_number(mean)


def test_text_from_the_inputs_is_escaped(files, tmp_path):
    evil = tmp_path / "evil.run"
    evil.write_text(files["mid"].read_text().replace(" mid ", " <script>alert(1)</script>&amp; "))
    out = tmp_path / "report.html"
    code, _, err = run_cli("report", files["q"], evil, files["good"], "-o", out)
    assert code == 0, err
    text = out.read_text(encoding="utf-8")
    self_contained(text)
    assert "<script>alert(1)</script>&amp;" in lxml.html.fromstring(text).text_content()
    assert "&lt;script&gt;alert(1)&lt;/script&gt;&amp;amp;" in text


def test_usage_and_input_errors(files, tmp_path, monkeypatch):
    code, _, err = run_cli("report", files["q"], files["good"], "-o", tmp_path / "r.html")
    assert code == 2 and "give at least 2 runs" in err
    code, _, err = run_cli("report", files["q"], files["good"], files["mid"], "-o", tmp_path / "r.pdf")
    assert code == 2 and "r.pdf: the report is an HTML file" in err
    code, _, err = run_cli("report", files["q"], files["good"], files["mid"], "-o", files["good"].with_suffix(".html"),
                           "--articles", "51")
    assert code == 2 and "articles" in err
    code, _, err = run_cli("report", files["q"], files["good"], files["mid"], "-o", tmp_path / "none" / "r.html")
    assert code == 1 and err == f"readsim-eval: {tmp_path / 'none' / 'r.html'}: No such file or directory\n"
    code, _, err = run_cli("report", files["q"], files["good"], files["part"], "-o", tmp_path / "r.html")
    assert code == 0, err  # 2 topics paired: enough
    monkeypatch.setitem(__import__("sys").modules, "matplotlib", None)
    monkeypatch.setitem(__import__("sys").modules, "matplotlib.figure", None)
    code, _, err = run_cli("report", files["q"], files["good"], files["mid"], "-o", tmp_path / "n.html")
    assert code == 1 and "pip install 'readsim[plots]'" in err and not (tmp_path / "n.html").exists()


# -- the real data -----------------------------------------------------------------------------------------


def chromium() -> str | None:
    found = next((shutil.which(n) for n in ("chromium", "chromium-browser", "google-chrome") if shutil.which(n)), None)
    if found is None and os.environ.get("CI", "").lower() in ("true", "1"):
        pytest.fail("chromium is not installed: CI opens the report in a real browser (.ci/run installs it)",
                    pytrace=False)
    return found


@pytest.fixture(scope="module")
def real_report(inex, tmp_path_factory):
    out = tmp_path_factory.mktemp("report") / "report.html"
    runs = sorted((inex / "runs").glob("*.run"))
    code, _, err = run_cli("report", inex / "qrels" / "inex2009-2010.qrels", *runs, "--collection", inex / "articles",
                           "--test", "t", "-o", out)
    assert code == 0, err
    return out, runs


def test_real_report_numbers_are_compare_s(real_report, inex):
    out, runs = real_report
    text = out.read_text(encoding="utf-8")
    self_contained(text)
    doc = lxml.html.fromstring(text)
    code, rows, _ = run_cli("compare", inex / "qrels" / "inex2009-2010.qrels", *runs, "--no-doc", "--test", "t",
                            "--per-topic", "--format", "jsonl")
    means = cells(doc, "means", "AgP/F(0.25)")
    assert len(means) == 5
    for r in records(rows, "mean"):
        assert means[r["run"]]["mean"] == format_number(r["mean"])
        assert means[r["run"]]["rank"] == str(r["rank"])
    topics = cells(doc, "topics")
    assert len(topics) == 118
    for r in records(rows, "topic"):
        if r["reference"] != r["run"] and f"diff:{r['run']}" in topics[r["topic"]]:
            assert topics[r["topic"]][f"diff:{r['run']}"] == format_signed(r["diff"])
    assert len(doc.xpath("//figure/*[local-name()='svg']")) == 5  # 4 difference plots and the curves
    views = doc.xpath("//div[@class='readsim-article']")
    assert len(views) >= 3  # the articles of 3 topics, drawn for each run that ranks them


def test_real_report_in_a_real_browser(real_report, tmp_path):
    browser = chromium()
    if browser is None:
        pytest.skip("chromium is not installed (apt-get install chromium)")
    out, _ = real_report
    shot = tmp_path / "report.png"
    done = subprocess.run([browser, "--headless=new", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
                           "--window-size=1280,2400", f"--screenshot={shot}", out.as_uri()],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    from PIL import Image

    image = Image.open(shot).convert("RGB")
    assert image.size == (1280, 2400)
    import numpy as np

    colours = {tuple(int(v) for v in rgb) for rgb in np.asarray(image.resize((320, 600))).reshape(-1, 3)}
    # drawn, not blank: the page's text, the table headers' tint and the plots' green and red bars
    near = lambda rgb: any(sum(abs(a - b) for a, b in zip(rgb, c)) < 40 for c in colours)  # noqa: E731
    assert near((26, 26, 26)) and near((46, 125, 50)) and near((198, 40, 40))
    if os.environ.get("READSIM_SHOTS"):
        shutil.copy(shot, os.path.join(os.environ["READSIM_SHOTS"], "report.png"))


def test_the_tukey_hsd_and_bh_are_compare_s(files, tmp_path):
    out = tmp_path / "report.html"
    argv = [files["q"], files["bad"], files["mid"], files["good"], "--test", "tukey", "--correction", "bh",
            "--resamples", "200", "--seed", "3"]
    assert run_cli("report", *argv, "-o", out)[0] == 0
    doc = page(out)
    assert "randomised Tukey HSD over all runs (200 trials, seed 3)" in doc.text_content()
    code, text, _ = run_cli("compare", *argv, "--no-doc", "--format", "jsonl")
    pairs = records(text, "pair")
    assert len(pairs) == 3
    for r in pairs:
        rows = doc.xpath(f"//table[@class='pairs' and @data-measure='{r['measure']}']/tbody/tr")
        tr = {(t.xpath("td")[0].text_content(), t.xpath("td")[1].text_content()): t for t in rows}[(r["better"], r["worse"])]
        shown = {k: tr.xpath(f"td[@class='{k}']")[0].text_content() for k in ("p_adjusted", "ci_low", "ci_high")}
        assert shown["ci_low"] == format_signed(r["ci_low"]) and shown["ci_high"] == format_signed(r["ci_high"])
        assert shown["p_adjusted"] in (f"{r['p_adjusted']:.3f}", "<0.001")


def test_the_api_writes_the_report_the_command_writes(files, tmp_path):
    """``readsim.report``: the same numbers as ``readsim-eval report`` (the page differs only in its
    provenance's command line and time), written atomically to the path given."""
    import re

    import readsim

    argv = [files["q"], files["bad"], files["mid"], files["good"]]
    out = tmp_path / "cli.html"
    assert run_cli("report", *argv, "-m", "AgP/F(0.25)", "-m", "MAP", "--seed", "2", "-o", out)[0] == 0
    html = readsim.report(files["q"], argv[1:], tmp_path / "api.html", ["AgP/F(0.25)", "MAP"], seed=2)
    assert (tmp_path / "api.html").read_text(encoding="utf-8") == html
    self_contained(html)
    shown = {}
    for name, doc in (("cli", page(out)), ("api", lxml.html.fromstring(html))):
        shown[name] = [cells(doc, table, m) for table in ("means", "pairs", "loss") for m in ("AgP/F(0.25)", "MAP", None)
                       if table != "loss" or m is None]
        shown[name].append(cells(doc, "topics"))
    assert shown["api"] == shown["cli"] and shown["api"][0]
    provenance = r"<tr><th class='run'>(written|command)</th><td>[^<]*</td></tr>"
    assert re.sub(provenance, "", html) == re.sub(provenance, "", out.read_text(encoding="utf-8"))
    with pytest.raises(ValueError, match="at least 2 runs"):
        readsim.report(files["q"], argv[1:2])
    with pytest.raises(ValueError, match="articles"):
        readsim.report(files["q"], argv[1:], articles=51)
