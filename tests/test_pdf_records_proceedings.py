"""A language project's papers (most PostScript made PDF by Ghostscript's ps2pdf), two
2016 proceedings, one English, one Russian, and China's olympiad team papers, as the dev55 to
dev58 rounds misread them: every "c" of a ps2pdf font lost to a carriage return, Russian
bylines printed surname first with a post after the name, a footnote-numbered affiliation
taken for a section's heading, a kerned "DRAFT" read as a name, a Cambridge journal's running
head, Chinese titles, names and dates; then the pages the reads of those rules found read
worse, pinned. Each asserts the right reading
from a built PDF or from the lines pdfium gave."""

from __future__ import annotations

from pathlib import Path

import pypdfium2 as pdfium
import pytest

from athena_lab.pdf.layout import Line
from athena_lab.pdf.meta import paper_record
from athena_lab.pdf.pages import PageText, extract_page
from printed_pdf import glyph_box_pdf

pytestmark = pytest.mark.unit

PROSE = ["We", "use", "median", "polish", "over", "a", "datacube", "so", "as", "to", "mine", "summaries."]
RU_PROSE = "В данной работе рассматривается возможность применения методов машинного обучения к задаче"


def read(pdf: Path) -> PageText:
    opened = pdfium.PdfDocument(str(pdf))
    try:
        return extract_page(opened, 0, "off")
    finally:
        opened.close()


def line(text: str, x0: float, y0: float, x1: float, y1: float, size: float) -> Line:
    return Line(text=text, boxes=[], bbox=(x0, y0, x1, y1), size=size, bold=False, cells=[text])


def page(*lines: Line) -> PageText:
    return PageText(number=1, width=420, height=595, lines=list(lines), scan=False)


def prose(y0: float, text: str, size: float = 8.8, n: int = 20) -> list[Line]:
    return [line(text, 76.5, y0 + 12 * i, 342.7, y0 + 12 * i + size, size) for i in range(n)]


def test_a_ps2pdf_fonts_c_mapped_to_a_carriage_return_reads_as_c(tmp_path: Path) -> None:
    """Mercury's papers made PDF by ps2pdf: the /ToUnicode of dvips' fonts maps the code of
    "c" to U+000D, so the title read "Compiling Mer ury to high-level C ode" and the
    affiliation "Computer S ience"."""
    pdf = tmp_path / "ps2pdf.pdf"
    pdf.write_bytes(glyph_box_pdf([(17, ["Compiling", "Mercury", "to", "high-level", "C", "code"]),
                                   (12, ["Department", "of", "Computer", "Science"]), *[(10, PROSE)] * 6],
                                  unicode={"c": "\r"}))
    first = read(pdf)
    assert [ln.text for ln in first.lines[:2]] == ["Compiling Mercury to high-level C code",
                                                   "Department of Computer Science"]


def test_a_carriage_return_in_a_font_that_prints_its_own_c_stays_a_break(tmp_path: Path) -> None:
    """Where the font prints a "c" of its own, its code 13 is no lost "c" (OT1 sets "fl"
    there): it is left a break, as before."""
    pdf = tmp_path / "own-c.pdf"
    pdf.write_bytes(glyph_box_pdf([(17, ["code", "flow"]), *[(10, PROSE)] * 6], unicode={"o": "\r"}))
    assert read(pdf).lines[0].text == "c de fl w"  # (the "o" mapped to U+000D: a break, no "c")


def test_a_tall_glyph_mapped_to_a_carriage_return_is_no_c(tmp_path: Path) -> None:
    """A glyph standing taller than the x-height letters of its word is no "c" however its
    font maps it ("Butterfly" keeps its "l" a break, not "Butter fy" made "Buttercfy")."""
    pdf = tmp_path / "tall.pdf"
    no_c = [word.replace("c", "h") for word in PROSE]  # (a font printing a "c" of its own is the other guard)
    pdf.write_bytes(glyph_box_pdf([(17, ["Butterfly", "wings"]), *[(10, no_c)] * 6], unicode={"l": "\r"}))
    assert "c" not in read(pdf).lines[0].text


def test_an_inkless_carriage_return_between_words_is_no_c(tmp_path: Path) -> None:
    """A slide's title, "FreeBSD" tab, carriage return "and": the return has (next to) no
    ink, far shorter than the letters beside it, so it stays a break ("FreeBSD c and c GDB" was read while the rule took any such return)."""
    pdf = tmp_path / "slide.pdf"
    no_c = [word.replace("c", "h") for word in PROSE]  # (a font printing a "c" of its own is the other guard)
    pdf.write_bytes(glyph_box_pdf([(17, ["FreeBSDxand", "GDB"]), *[(10, no_c)] * 6], unicode={"x": "\r"}, blank="x"))
    assert read(pdf).lines[0].text == "FreeBSD and GDB"


def test_russian_bylines_surname_first_with_a_post_after_are_names() -> None:
    """SPISOK 2016's "Черняев А. В., студент 4 курса кафедры системного программирования
    СПбГУ": the name before the post, written initials first, and its degree ("к.т.н.")
    no name; no byline was read before."""
    paper = page(line("Анализ времени работы методов", 77.9, 49.0, 341.4, 61.8, 12.0),
                 line("выбора вспомогательных критериев", 64.8, 66.0, 354.5, 78.8, 12.0),
                 line("Черняев А. В., студент 4 курса кафедры системного", 89.6, 108.3, 329.8, 117.4, 8.8),
                 line("программирования СПбГУ, chernyaev.arseniy@gmail.com", 81.1, 120.3, 338.2, 129.4, 8.8),
                 line("Буздалов М. В., к.т.н., доцент кафедры компьютерных технологий", 56.1, 132.2, 363.1, 141.1, 8.8),
                 line("Университета ИТМО, mbuzdalov@gmail.com", 108.5, 144.0, 310.8, 153.1, 8.8),
                 line("Аннотация", 176.6, 164.9, 242.9, 175.6, 10.6), *prose(182.4, RU_PROSE))
    assert paper_record({}, paper).authors == ["А. В. Черняев", "М. В. Буздалов"]


def test_russian_initials_set_close_keep_their_dots() -> None:
    """"Суворова А.В., с. н. с. лаборатории ТиМПИ СПИИРАН": glued initials lost their last
    dot and the name its reading; a senior researcher's rank ("с. н. с.") is no name."""
    paper = page(line("Моделирование рискованного поведения", 51.7, 48.4, 367.9, 61.8, 13.4),
                 line("Суворова А.В., с. н. с. лаборатории ТиМПИ СПИИРАН,", 79.3, 80.1, 340.2, 89.5, 9.4),
                 line("suvalv@gmail.com", 170.2, 92.1, 249.4, 101.4, 9.4),
                 line("Аннотация", 176.6, 112.9, 243.0, 123.6, 10.7), *prose(130.2, RU_PROSE, 9.4))
    assert paper_record({}, paper).authors == ["А. В. Суворова"]


def test_a_latin_name_ending_in_an_initial_is_not_turned_round() -> None:
    """Only a Cyrillic name is printed surname first by custom: "Avila Clemenshia P." (a
    Tamil name, given name first) stays as printed."""
    paper = page(line("Click Through Rate Prediction for Display Advertisement", 60.0, 60.0, 360.0, 74.0, 14.0),
                 line("Avila Clemenshia P., Department of Computer Science", 60.0, 90.0, 360.0, 99.0, 9.0),
                 line("Abstract", 176.0, 112.0, 243.0, 122.0, 10.0), *prose(130.0, " ".join(PROSE)))
    assert paper_record({}, paper).authors == ["Avila Clemenshia P."]


def test_an_affiliation_opened_by_its_number_goes_on_to_the_next_name() -> None:
    """EvoLang's "ZANNA CLAY" / "1 School of Psychology, University of Birmingham, …" /
    "JAHMAIRA ARCHBOLD, KLAUS ZUBERBUHLER": the affiliation's number read as a section's
    "1 …" heading ended the byline at its first name."""
    paper = page(line("FUNCTIONALLY FLEXIBILE VOCALIZATIONS IN WILD BONOBOS", 137.2, 240.7, 458.6, 251.6, 10.9),
                 line("ZANNA CLAY", 260.3, 273.8, 324.9, 284.7, 10.9),
                 line("1 School of Psychology, University of Birmingham,", 197.3, 288.3, 398.5, 300.8, 10.9),
                 line("Neuchatel, Switzerland", 251.3, 316.5, 344.6, 327.4, 10.9),
                 line("z.clay@bham.ac.uk", 258.5, 329.5, 337.5, 340.4, 10.9),
                 line("JAHMAIRA ARCHBOLD, KLAUS ZUBERBUHLER", 180.9, 359.0, 406.9, 369.9, 10.9),
                 line("2 Institute of Biology, University of Neuchatel, Neuchatel, Switzerland", 141.0, 373.5, 455.1, 386.0, 10.9),
                 line("1. Introduction", 136.0, 452.8, 205.4, 463.7, 10.9),
                 *[line("A core component underlying the evolution of language and the development of", 136.0,
                        485.2 + 13 * i, 460.8, 496.1 + 13 * i, 10.9) for i in range(20)])
    assert paper_record({}, PageText(number=1, width=595, height=842, lines=paper.lines, scan=False)).authors == \
        ["Zanna Clay", "Jahmaira Archbold", "Klaus Zuberbuhler"]


def test_a_section_numbered_one_still_ends_the_byline() -> None:
    """The guard: "1 Introduction" under the names (no comma, no organisation) still ends
    them, and the names under it are the body's."""
    paper = page(line("A Study of Things", 100.0, 60.0, 320.0, 76.0, 16.0),
                 line("Jane Doe", 170.0, 90.0, 250.0, 100.0, 10.0),
                 line("1 Introduction", 60.0, 120.0, 160.0, 130.0, 10.0),
                 line("John Smith", 170.0, 140.0, 250.0, 150.0, 10.0), *prose(160.0, " ".join(PROSE), 10.0))
    assert paper_record({}, paper).authors == ["Jane Doe"]


def test_a_kerned_draft_is_neither_a_name_nor_a_subtitle() -> None:
    """Mercury's "Type classes in Mercury" / "DRAF T": the tag kerned apart read as an
    author "Draf T", then as a subtitle."""
    paper = page(line("Type classes in Mercury", 222.1, 162.1, 389.2, 181.1, 15.9),
                 line("DRAF T", 273.7, 199.7, 338.0, 212.3, 11.8),
                 line("David Jeffery, Fergus Henderson and Zoltan Somogyi", 169.4, 240.5, 442.1, 253.9, 11.3),
                 line("Department of Computer Science, University of Melbourne", 154.4, 254.4, 456.7, 267.8, 11.3),
                 line("September 30, 1998", 255.6, 292.9, 355.8, 304.9, 11.3),
                 line("Abstract", 285.7, 331.3, 325.1, 340.0, 8.1), *prose(345.8, " ".join(PROSE), 8.6))
    record = paper_record({}, PageText(number=1, width=612, height=842, lines=paper.lines, scan=False))
    assert (record.title, record.authors, record.year) == \
        ("Type classes in Mercury", ["David Jeffery", "Fergus Henderson", "Zoltan Somogyi"], 1998)


def test_a_cambridge_journals_running_head_dates_the_paper() -> None:
    """TLP's "TLP 11 (4–5): 575–591, 2011. © Cambridge University Press 2011" (the sign
    read "!C"): the journal's volume, issue, pages and year, no year was read."""
    paper = page(line("TLP 11 (4–5): 575–591, 2011. !C Cambridge University Press 2011 575", 78.3, 45.6, 498.8, 63.6, 8.0),
                 line("Estimating the overlap between dependent computations", 90.0, 120.0, 500.0, 134.0, 14.0),
                 line("for automatic parallelization", 190.0, 136.0, 400.0, 150.0, 14.0),
                 line("PAUL BONE, ZOLTAN SOMOGYI and PETER SCHACHTE", 150.0, 170.0, 460.0, 180.0, 10.0),
                 line("Department of Computer Science and Software Engineering", 150.0, 184.0, 460.0, 194.0, 9.0),
                 *prose(230.0, " ".join(PROSE), 9.0))
    record = paper_record({}, PageText(number=1, width=595, height=842, lines=paper.lines, scan=False))
    assert record.year == 2011


CN_PROSE = "辗转相除法求两个数的最大公约数是最早被数学家研究的算法之一,并且和数论中的连分数有着紧密的联系。"


def cn_page(*lines: Line) -> PageText:
    return PageText(number=1, width=612, height=792, lines=list(lines), scan=False)


def cn_prose(y0: float, n: int = 20) -> list[Line]:
    return [line(CN_PROSE, 100.1, y0 + 13.5 * i, 511.9, y0 + 13.5 * i + 10.9, 10.9) for i in range(n)]


def test_a_chinese_title_is_no_one_word_logo_and_its_author_follows_his_school() -> None:
    """China's olympiad team papers: "欧几里得算法的应用" has no space, so it counted one word,
    a logo's, and the school's line under it was taken for the title; "江苏省常州高级中学
    金斌" is the school, then the author; "2009 年 1 月" is a date."""
    paper = cn_page(line("欧几里得算法的应用", 213.0, 113.0, 399.0, 133.6, 20.7),
                    line("江苏省常州高级中学 金斌∗", 224.8, 153.7, 392.2, 168.4, 14.3),
                    line("2009 年 1 月", 267.1, 183.8, 344.9, 199.2, 12.7),
                    line("摘 要", 293.0, 243.8, 319.0, 254.7, 10.9), *cn_prose(264.1))
    record = paper_record({}, paper)
    assert (record.title, record.authors, record.year) == ("欧几里得算法的应用", ["金斌"], 2009)


def test_a_chinese_series_running_head_dates_the_paper() -> None:
    """"IOI2004 国家集训队论文 楼天城" at the page's head: the training team's papers of 2004."""
    paper = cn_page(line("IOI2004 国家集训队论文 楼天城", 373.2, 42.3, 505.2, 52.4, 9.1),
                    line("浅谈部分搜索+高效算法在搜索问题中的应用", 140.2, 78.1, 454.6, 95.9, 16.0),
                    line("浙江省杭州第十四中学 楼天城", 213.6, 104.0, 381.6, 116.0, 12.0),
                    line("摘要:", 90.0, 135.2, 126.2, 147.2, 12.0), *cn_prose(150.4))
    record = paper_record({}, paper)
    assert (record.title, record.authors, record.year) == ("浅谈部分搜索+高效算法在搜索问题中的应用", ["楼天城"], 2004)


def test_a_chinese_subtitle_opens_with_its_dash_and_a_translation_is_no_line_of_the_title() -> None:
    """"由感性认识到理性认识" / "——透析一类搏弈游戏的解答过程" a line's space under it, in
    the title's size: one title; an English translation under a Chinese title is not its."""
    dashed = cn_page(line("由感性认识到理性认识", 177.8, 88.0, 417.7, 107.2, 19.2),
                     line("——透析一类搏弈游戏的解答过程", 265.5, 138.8, 505.5, 158.0, 19.2),
                     line("张一飞", 284.3, 170.0, 311.3, 181.0, 10.9), *cn_prose(208.2))
    assert paper_record({}, dashed).title == "由感性认识到理性认识——透析一类搏弈游戏的解答过程"
    translated = cn_page(line("最小割模型在信息学竞赛中的应用", 117.0, 231.7, 478.3, 255.5, 23.9),
                         line("Applications of Minimum Cut Model", 107.7, 262.0, 487.6, 288.6, 26.6),
                         line("in Informatics", 224.7, 293.2, 370.7, 319.8, 26.6),
                         line("胡伯涛 Amber", 264.8, 340.0, 330.6, 351.6, 11.6), *cn_prose(380.0))
    record = paper_record({}, translated)
    assert (record.title, record.authors) == ("最小割模型在信息学竞赛中的应用", ["胡伯涛"])


def test_a_chinese_papers_supervisor_and_its_tables_are_no_authors() -> None:
    """"指导教师" / "陈颖" under the author is the supervisor; with no byline, a table's row
    heads far down the page ("Label" / "Strength") are no name: Chinese prose ends the byline."""
    cover = cn_page(line("歧路修远,上下求索――例谈信息学竞", 118.6, 181.0, 521.5, 204.9, 23.9),
                    line("赛分析中的“深”与“广”", 185.3, 218.5, 459.3, 242.4, 23.9),
                    line("肖汉骏", 298.4, 323.1, 341.3, 337.0, 13.9),
                    line("指导教师", 291.2, 419.1, 348.4, 433.0, 13.9),
                    line("陈颖", 305.6, 446.4, 334.0, 460.4, 14.0),
                    line("福建省福州第一中学", 264.4, 612.6, 375.3, 624.7, 12.0))
    assert paper_record({}, cover).authors == ["肖汉骏"]
    unsigned = cn_page(line("中等硬度解题报告", 241.8, 85.0, 353.8, 101.7, 16.8),
                       line("[摘要]中等硬度是 IOI2000 第一试的最后一道题目。这道题主要考察选手的创造性,自创算", 90.1, 110.5, 504.6, 123.0, 12.6),
                       *cn_prose(126.1, 10), line("Label 1 2 3 4 5", 89.9, 407.8, 450.1, 419.5, 11.6),
                       line("Strength 2 5 4 3 1", 89.9, 423.9, 450.1, 435.6, 11.6))
    assert paper_record({}, unsigned).authors == []


def test_a_raised_footnote_number_inside_a_chinese_title_is_dropped() -> None:
    """"线段跳表——跳表¹的一个拓展": the footnote's number, small and raised between two
    letters, was read into the title ("跳表1的")."""
    text = "线段跳表——跳表1的一个拓展"
    boxes, x = [], 150.3
    for ch in text:
        wide = 7.2 if ch == "1" else 21.9
        boxes.append((x, 96.7, x + wide, 111.0 if ch == "1" else 118.6))
        x += wide
    title = Line(text=text, boxes=boxes, bbox=(150.3, 96.7, x, 118.6), size=21.9, bold=False, cells=[text])
    paper = cn_page(title, line("石家庄二中 李骥扬", 415.9, 149.3, 505.0, 159.8, 10.5),
                    line("摘要", 285.4, 171.9, 309.5, 183.9, 12.0), *cn_prose(195.3))
    record = paper_record({}, paper)
    assert (record.title, record.authors) == ("线段跳表——跳表的一个拓展", ["李骥扬"])


# The reads of these rules (two helpers built pages against the commit that brought them):
# each page below was read worse by it than by the commit before; each is pinned here.

EN_PROSE = "We use median polish over a datacube so as to mine summaries of the data and report what we found in it."
JA_PROSE = "本論文では、深層学習を用いた文書分類手法を提案し、その有効性を複数のデータセットで評価する。"


def centred(text: str, y: float, size: float, bold: bool = False) -> Line:
    """A line centred on a Letter page, a CJK letter an em wide, a Latin one half an em."""
    width = sum(size if _is_cjk(ch) else 0.5 * size for ch in text)
    return Line(text=text, boxes=[], bbox=(306.0 - width / 2, y, 306.0 + width / 2, y + size), size=size,
                bold=bold, cells=[text])


def _is_cjk(ch: str) -> bool:
    return "\u3040" <= ch <= "\u9fff"


def paragraph(y0: float, text: str, size: float = 10.9, n: int = 20) -> list[Line]:
    return [line(text, 90.0, y0 + 1.25 * size * i, 522.0, y0 + 1.25 * size * i + size, size) for i in range(n)]


def read_lines(*lines: Line | list[Line]) -> tuple[str | None, list[str], int | None]:
    flat = [piece for item in lines for piece in (item if isinstance(item, list) else [item])]
    record = paper_record({}, PageText(number=1, width=612, height=792, lines=flat, scan=False))
    return record.title, record.authors, record.year


def test_an_english_title_holding_a_cjk_word_keeps_all_its_lines() -> None:
    """"The Semantics of the Mandarin Particle 了" / "in Narrative Discourse": the
    translation rule kept only the line with a CJK letter."""
    title, authors, _ = read_lines(centred("The Semantics of the Mandarin Particle 了", 100, 17.2),
                                   centred("in Narrative Discourse", 121, 17.2), centred("Jane Doe and Wei Zhang", 155, 12.0),
                                   centred("Department of Linguistics, University of Edinburgh", 171, 10.0),
                                   centred("Abstract", 200, 10.0), paragraph(216, EN_PROSE, 10.0))
    assert (title, authors) == ("The Semantics of the Mandarin Particle 了 in Narrative Discourse", ["Jane Doe", "Wei Zhang"])


def test_a_thesis_covers_label_in_chinese_is_no_title() -> None:
    """"硕士学位论文" (a master's thesis) set largest on the cover: a label, as it was one
    word before CJK letters counted two a word."""
    title, _, _ = read_lines(centred("硕士学位论文", 150, 36.0, True), centred("基于深度学习的中文命名实体识别方法研究", 260, 22.0, True),
                             centred("作者：张三", 400, 15.0), centred("指导教师：李四 教授", 425, 15.0),
                             centred("清华大学计算机科学与技术系", 600, 15.0))
    assert title == "基于深度学习的中文命名实体识别方法研究"


def test_a_date_in_chinese_prose_or_a_japanese_received_date_is_no_year() -> None:
    """A month and year an abstract mentions ("1997年10月") is the story's, and "受付日 … 採録日"
    are review dates: neither dates the paper (a Chinese paragraph has no spaces, so it
    counted as one word, never prose)."""
    _, _, year = read_lines(centred("欧几里得算法的应用", 113, 20.7), centred("江苏省常州高级中学 金斌", 153, 14.3),
                            centred("摘 要", 244, 10.9), paragraph(264, CN_PROSE, n=4),
                            paragraph(324, "而本文讨论的扩展版本是在1997年10月的一次竞赛中首次出现的,我们给出新的解法。", n=3),
                            paragraph(380, CN_PROSE, n=12))
    assert year is None
    _, _, year = read_lines(line("情報処理学会論文誌 Vol.60 No.4 1–10 (Apr. 2019)", 90, 40, 300, 48, 8.0),
                            centred("深層学習を用いた日本語文書の自動要約", 90, 18.0), centred("山田 太郎  佐藤 花子", 130, 11.0),
                            paragraph(180, JA_PROSE, 10.0), line("受付日 2018年6月12日, 採録日 2018年12月3日", 90, 700, 400, 708, 8.0))
    assert year == 2019


def test_a_series_word_in_an_abstracts_sentence_is_no_running_head() -> None:
    """"摘要:在2015年会议上提出的算法…" near the page's top read as a series' running head
    ("…年会") and outranked the page's "© 2018"."""
    _, _, year = read_lines(centred("浅谈部分搜索+高效算法在搜索问题中的应用", 50, 16.0), centred("张三 李四", 78, 14.3),
                            centred("Copyright © 2018 CCF", 98, 10.0),
                            line("摘要:在2015年会议上提出的算法基础上,本文给出了一种改进的最短路算法并证明其正确性。", 90, 122, 522, 133, 10.9),
                            paragraph(140, CN_PROSE))
    assert year == 2018


def test_a_references_tail_at_the_pages_head_is_no_cambridge_running_head() -> None:
    """"Artificial Intelligence 13 (1): 81–132, 1980." over a paper (the article before's
    reference, wrapped): the running head's shape, without the press's ©, is no masthead."""
    _, _, year = read_lines(line("Artificial Intelligence 13 (1): 81–132, 1980.", 90, 50, 330, 59, 9.0),
                            centred("A Theory of Diagnosis from First Principles", 110, 17.0), centred("Raymond Reiter", 145, 12.0),
                            centred("Department of Computer Science, University of Toronto", 161, 10.0),
                            paragraph(200, EN_PROSE, 10.0, 30),
                            line("Copyright © 1987 by Elsevier Science Publishers B.V.", 90, 740, 400, 748, 8.0))
    assert year == 1987


def test_a_cjk_translation_under_an_english_title_does_not_end_the_byline() -> None:
    """A title's Chinese translation over the names, 30 letters with no sentence's marks:
    no prose, so the byline under it is read."""
    _, authors, _ = read_lines(centred("Deep Learning for Chinese Word Segmentation", 90, 17.0),
                               centred("深度学习在中文分词中的应用研究：方法、挑战与未来发展方向综述", 115, 12.0),
                               centred("Wei Zhang, Jian Li", 145, 12.0),
                               centred("Department of Computer Science, Tsinghua University", 161, 10.0),
                               centred("Abstract", 190, 10.0), paragraph(206, EN_PROSE, 10.0))
    assert authors == ["Wei Zhang", "Jian Li"]


def test_a_long_japanese_title_is_not_given_up_for_its_translation() -> None:
    """A three-line Japanese title of 66 letters counted 33 words, over the 30 a title may
    have, and the English translation under it was taken."""
    title, _, _ = read_lines(centred("大規模言語モデルを用いた日本語の質問応答システム", 90, 17.0),
                             centred("の構築と医療分野の専門用語を対象とした評価実験", 111, 17.0),
                             centred("および今後の課題に関する基礎的な検討について", 132, 17.0),
                             centred("山田 太郎  佐藤 花子", 170, 11.0),
                             centred("Construction of a Japanese Question Answering System", 200, 13.0),
                             centred("Using Large Language Models", 217, 13.0), paragraph(250, JA_PROSE, 10.0))
    assert title is not None and title.startswith("大規模言語モデル")


def test_russian_initials_n_s_are_no_researchers_rank() -> None:
    """"Н. С. Хрущёва, А. В. Петров": the capitals "Н. С." matched the rank "н. с." (a
    research fellow) and the line was an affiliation's."""
    _, authors, _ = read_lines(centred("Моделирование рискованного поведения", 60, 14.0),
                               centred("Н. С. Хрущёва, А. В. Петров", 90, 10.0),
                               centred("Санкт-Петербургский государственный университет", 104, 10.0),
                               centred("Аннотация", 130, 10.7), paragraph(150, RU_PROSE, 9.4))
    assert authors == ["Н. С. Хрущёва", "А. В. Петров"]


def test_names_with_undotted_initials_are_not_kerned_words() -> None:
    """"T He, Y Li and J Smith", "A Ward and B Jones" (initials without dots, as IOP prints
    them): "T He" joined reads "the", "A Ward" "award", and the byline was lost."""
    _, authors, _ = read_lines(centred("Quantum Transport in Disordered Graphene Nanoribbons", 90, 17.0),
                               centred("T He, Y Li and J Smith", 125, 12.0),
                               centred("Department of Physics, University of Bristol", 141, 10.0),
                               centred("Abstract", 170, 10.0), paragraph(186, EN_PROSE, 10.0))
    assert authors == ["T He", "Y Li", "J Smith"]


def test_a_cyrillic_name_given_first_stays_beside_names_with_initials() -> None:
    """"Иван Петров" beside "А. В. Суворова": only a word in capitals inside ("ТиМПИ
    СПИИРАН") makes a Cyrillic "name" without initials an affiliation's."""
    _, authors, _ = read_lines(centred("Моделирование рискованного поведения", 60, 14.0),
                               centred("Суворова А. В., Иван Петров", 90, 10.0),
                               centred("Санкт-Петербургский государственный университет", 104, 10.0),
                               centred("Аннотация", 130, 10.7), paragraph(150, RU_PROSE, 9.4))
    assert authors == ["А. В. Суворова", "Иван Петров"]


def test_a_name_given_first_before_its_university_is_not_turned_round() -> None:
    """"Иван Петров Университет ИТМО": the no-comma rule took "Иван Петров" for a surname
    and an initial ("П. Иван"); it needs initials with their dots."""
    _, authors, _ = read_lines(centred("Моделирование рискованного поведения", 60, 14.0),
                               centred("Иван Петров Университет ИТМО, ivan@mail.ru", 90, 10.0),
                               centred("Аннотация", 130, 10.7), paragraph(150, RU_PROSE, 9.4))
    assert "П. Иван" not in authors
    _, authors, _ = read_lines(centred("Сбор и первичный анализ данных о поведении процессов", 60, 14.0),
                               centred("Баклановский М.В. Университет ИТМО, mb@cit.ifmo.ru,", 90, 10.0),
                               centred("Аннотация", 130, 10.7), paragraph(150, RU_PROSE, 9.4))
    assert authors == ["М. В. Баклановский"]  # (with its initials' dots, the name before its university)


def test_a_wrapped_town_over_the_next_affiliation_is_no_author() -> None:
    """"1 Faculty of Computer Science, University of Malaya," / "Kuala Lumpur" / "2 …": the
    town, in the affiliation's type, is no next author's name."""
    _, authors, _ = read_lines(centred("Sentiment Analysis of Malay Tweets", 90, 17.0),
                               centred("Ahmad Rahman and Siti Aminah", 120, 12.0),
                               centred("1 Faculty of Computer Science, University of Malaya,", 136, 10.0),
                               centred("Kuala Lumpur", 148, 10.0),
                               centred("2 School of Computing, National University of Singapore", 160, 10.0),
                               centred("Abstract", 190, 10.0), paragraph(206, EN_PROSE, 10.0))
    assert authors == ["Ahmad Rahman", "Siti Aminah"]


def test_chinese_cover_details_a_wrapped_title_a_raised_run_a_series_cell_a_bracketed_name() -> None:
    """A Chinese title wrapped mid-word joins with no space ("…信息学竞" / "赛分析…"); a raised
    footnote number of two digits goes whole ("跳表¹²的"); a series' running head in a cell of
    its own after the title's ("线段跳表…   2009 年冬令营论文 李骥扬") dates the page; "Li-Wen
    Hsu (許立文)" is the name in Latin letters."""
    wrapped, _, _ = read_lines(centred("歧路修远,上下求索――例谈信息学竞", 181.0, 23.9), centred("赛分析中的“深”与“广”", 218.5, 23.9),
                               centred("肖汉骏", 323.1, 13.9), centred("福建省福州第一中学", 612.6, 12.0))
    assert wrapped == "歧路修远,上下求索――例谈信息学竞赛分析中的“深”与“广”"
    text = "线段跳表——跳表12的一个拓展"
    boxes, x = [], 150.3
    for ch in text:
        wide = 7.2 if ch.isdigit() else 21.9
        boxes.append((x, 96.7, x + wide, 111.0 if ch.isdigit() else 118.6))
        x += wide
    head = Line(text="线段跳表——跳表的一个拓展 2009 年冬令营论文 李骥扬", boxes=[], bbox=(104.9, 43.7, 301.9, 51.9), size=7.6,
                bold=False, cells=["线段跳表——跳表的一个拓展", "2009 年冬令营论文 李骥扬"])
    title = Line(text=text, boxes=boxes, bbox=(150.3, 96.7, x, 118.6), size=21.9, bold=False, cells=[text])
    record = read_lines(head, title, line("石家庄二中 李骥扬", 415.9, 149.3, 505.0, 159.8, 10.5),
                        line("摘要", 285.4, 171.9, 309.5, 183.9, 12.0), cn_prose(195.3))
    assert record == ("线段跳表——跳表的一个拓展", ["李骥扬"], 2009)
    _, authors, _ = read_lines(line("Getting started with", 37.5, 104.1, 457.2, 152.6, 48.0),
                               line("FreeBSD development", 37.5, 161.8, 507.5, 210.3, 48.0),
                               line("Li-Wen Hsu (許立文) <lwhsu@FreeBSD.org>", 37.5, 228.2, 383.6, 248.1, 18.0),
                               line("https://lwhsu.org", 37.5, 251.7, 173.7, 269.9, 18.0))
    assert authors == ["Li-Wen Hsu"]


def test_names_in_capitals_keep_glued_initials_and_a_company_unit_is_no_name() -> None:
    """"H.T. KUNG" is "H.T. Kung", not "H.t. Kung"; "FreeBSD Services, Ltd" under a name is
    its company (read as a name once its "c" came back from a ps2pdf font)."""
    _, authors, _ = read_lines(centred("On Optimistic Methods for Concurrency Control", 90, 17.0),
                               centred("H.T. KUNG and JOHN T. ROBINSON", 125, 12.0),
                               centred("Carnegie-Mellon University", 141, 10.0),
                               centred("Abstract", 170, 10.0), paragraph(186, EN_PROSE, 10.0))
    assert authors == ["H.T. Kung", "John T. Robinson"]
    _, authors, _ = read_lines(centred("An implementation of the Yarrow PRNG for FreeBSD", 108.9, 13.3),
                               centred("Mark R. V. Murray", 153.7, 11.2), centred("FreeBSD Services, Ltd", 166.3, 11.0),
                               centred("Amersham, Buckinghamshire, UK", 180.3, 11.0),
                               centred("Abstract", 235.3, 10.3), paragraph(272.3, EN_PROSE, 9.3))
    assert authors == ["Mark R. V. Murray"]


def test_a_laboratorys_capitals_wrapped_under_a_russian_byline_are_no_name() -> None:
    """"Суворова А.В., с. н. с. лаборатории" / "ТиМПИ СПИИРАН": beside a name with initials,
    a Cyrillic "name" holding a word in capitals is the laboratory's."""
    _, authors, _ = read_lines(centred("Моделирование рискованного поведения", 60, 14.0),
                               centred("Суворова А.В., с. н. с. лаборатории", 90, 10.0),
                               centred("ТиМПИ СПИИРАН", 104, 10.0),
                               centred("Аннотация", 130, 10.7), paragraph(150, RU_PROSE, 9.4))
    assert authors == ["А. В. Суворова"]
