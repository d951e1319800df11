"""Title, authors and year of a paper, read from what its first page prints.

A PDF's own fields are a poor source: on papers-we-love the /Title was "System Model"
(Dynamo) or "Microsoft Word - Kalman15.doc", the /Author "Administrator", and the
CreationDate the year of the scan (Einstein 1905 → 2011). So the record comes from the
first page: the title is the largest type near the top, the authors are the name-shaped
lines under it (affiliations, e-mails and places left out), and the year is one the page
prints as a date, a copyright or a venue line ("© 1985 ACM", "OSDI 2012", "May 2007",
an arXiv stamp). The PDF's fields count only where the page agrees with them. A year that
cannot be read that way is left out ("n.d." in the label): a wrong year is worse than
none. Measured on a hand-checked set of archive papers (bench/data/archive_metadata.jsonl,
docs/pdf.md).

``PaperRecord`` is the typed record every source fills the same way (issue 29's Zotero
records replace these fields when a library knows the paper).
"""

from __future__ import annotations

import html
import re
import statistics
import unicodedata
from collections import Counter
from dataclasses import dataclass, field
from difflib import SequenceMatcher
from typing import Any

from .layout import Box, Line
from .pages import COMMON_PAIRS, PageText

_JUNK_TITLE = re.compile(r"^(untitled|microsoft word|document\d*$|proceedings template|arxiv:)|"
                         r"\.(docx?|tex|dvi|pdf|indd|ps|eps|rtf)\b|\\", re.I)
_JUNK_AUTHOR = re.compile(r"^(administrator|admin|user|owner|author|unknown|default|end user|"
                          r"[a-z]+)$", re.I)
_DOI = re.compile(r"\b(10\.\d{4,9}/[^\s\"<>]+)", re.I)
_ARXIV = re.compile(r"arXiv:\s*(\d{4}\.\d{4,5}|[a-z-]+(?:\.[A-Z]{2})?/\d{7})(v\d+)?", re.I)
_ARXIV_NAME = re.compile(r"(?<!\d)(\d{4}\.\d{4,5})(v\d+)?(?!\d)")

# A version's note: "This is the full version.", "Preliminary version of the paper" (not a
# title's "Version Spaces" or "The Extended Version Space Algorithm")
_VERSION_NOTE = (r"(?:this is )?(?:the |an? )?(?:full|preliminary|extended|revised|final|long|short) version(?:\W*$|"
                 r"\s+(?:of\s+(?:this|the|our|a)\s+(?:\w+\s+)?(?:paper|article|work|report)|is available|appears?|"
                 r"appeared|will appear|can be found|to appear))")
# a report's number alone on its line, a scan's marks around it: "‘STAN-CS-73-403 ’ . --", "CMU-CS-85-123"
_REPORT_ID = (r"[\W_]*(?-i:[A-Z]{2,}(?:[-/][A-Z]{1,6}){1,3}[-/]\d{2,4}-\d{1,5}|"
              r"[A-Z]{2,}(?:[-/][A-Z]{1,6}){0,2}[-/](?:TR|TM|RR|TN)[-/]?\d{1,5})[\W_]*$")
# Lines that are no title: running heads, venue and report banners, stamps.
_NOT_TITLE = re.compile(
    r"^(arxiv|submitted|under consideration|reprinted|appear(s|ed)|to appear|published|proceedings|"
    # (a word of a title that opens like one is none: "Journaling versus Soft Updates", "Abstractions for …")
    r"journal(?!ing|ism)|transactions|communications|contemporary|technical report|tech\. rep|report(?!ing)|working\W{0,2}paper|"
    r"downloaded|copyright|©|\(c\)|vol\.|volume|page \d|\(?preprint|draft(?!ing)|version(?!ing)|"
    r"(?:aas|aiaa)[\s-]+\d{2,4}-\d+\W*$|"  # a society's paper number: "(Preprint) AAS 10-140"
    r"lecture notes|in proc|workshop|conference|symposium|abstract(?!ion|ing)|keywords|index terms|synopsis\W*$|summary\W*$|"
    r"short communications|programming techniques|operating systems|editors?|extended abstract|"
    r"[|(\[]?\s*detailed summary\s*[|)\]]?\s*$|"  # a version's tag, its brackets read as bars: "| Detailed Summary |"
    + _VERSION_NOTE + r"|"
    r"technical note|(?:an? )?position paper|white\s?paper\W*$|invited (paper|talk)|research note|key words|categories and subject|"
    r"general terms|ccs concepts|acm reference format|chapter \d+\W*$|(?:\w+\s+){0,2}report no(?:\.|\s*\d*$)|"
    r"memorandum no\.|"  # Berkeley's "Memorandum No. UCB/ERL M85/95"
    # a series' memo and its number ("Hardware Memo 3", ITS's; "AI Memo 349"), alone or with its
    # date or its author ("Hardware Memo 2 J. Holloway"), not a title's words ("The Memo 2 Protocol")
    r"(?-i:[A-Z][\w-]*\s+){1,2}memo\s+\d+[a-z]?(?:[\s,.;]+(?:\w+\.?,?\s+){0,2}(?:19|20)\d\d|"
    r"\s+(?-i:(?:[A-Z]\.\s*)+[A-Z][a-z]+))?\W*$|"
    + _REPORT_ID + r"|"
    r"(?-i:[A-Z][A-Z&]+\s+){1,2}research report\W*$|"  # a series' banner over a report's title: "IBM Research Report"
    r"research report\s+[\w./-]*\d[\w./-]*\W*$|"  # "Research Report 95/9" under a laboratory's "WRL"
    r"(?:1|I)\.?\s+introduction\b|"  # the first section's heading: "1 INTRODUCTION: THE FRUITFLY ON"
    # a laboratory's banner under a title in its type ("MSR Technical Report"), as "IBM Research Report" is
    r"(?-i:[A-Z][A-Z&]+\s+){1,2}technical (?:report|note)\W*$|"
    r"r?apport(?: de recherche| technique)?\W*$|de recherche\W*$|"  # INRIA's cover: "apport" / "de recherche" (its R a picture)
    r"(?:first|second|third|fourth|fifth|sixth|revised|new|\d+(?:st|nd|rd|th))\s+edition\W*$|"  # a book's "Second Edition"
    r"(?:[\w.-]+\s+)?work(?:ing)?\s+group\s+\d+\s*(?:\([^)]*\))?\s*$|"  # a spec's "O-RAN Work Group 11 (Security Work Group)"
    r"\((?=[^)]*\)?[\W\d]*$))", re.I)
_CONTENTS = re.compile(r"^(table of )?contents$", re.I)
_ORG = re.compile(
    r"\b(universit\w*|universi[dt]ad\w*|universidade|univ\.|institut\w*|laborator\w*|labs?|school|college|department|dept\.?|"
    r"faculty|facult\w*|center|centre|research|corporation|corp\.?|inc\.?|ltd\.?|gmbh|company|"
    r"foundation|academy|agency|microsoft|microsystems|google|ibm|yahoo!?|amazon|facebook|intel|oracle|"
    r"akamai|at&t|xerox|hp|hewlett|packard|nokia|inria|cnrs|eth|epfl|mit|cmu|ucla|ucb|uc|nasa|industries|"
    r"jepsen|"
    r"asa|llc|plc|ag|s\.a\.|b\.v\.|"
    r"technolog\w*|systems|software|sciences?|engineering|informatics|informatica|"
    r"informática|computing|computer|mathematics|physics|division|group|graduate|program|"
    r"programme|unit|team|project|consortium|association|society|council|agency|ministry|"
    r"national|federal|hospital|medical|museum|library|(?:(?-i:[A-Z]{2,})|academic|acm|ieee|the|university|clarendon|oxford|cambridge)\s+press|publishing|publishers?|"
    r"supervis\w*|advis\w*|thesis|dissertation|submitted|partial|fulfil+ment|degree|"
    r"master|bachelor|doctor|phd|honours|honors|editor\w*|chair|professor|fellow|student|series|"
    r"monograph|verlag|h[öo]gskola|h[áa]sk[óo]li|\w*deild|yliopisto|tekniska|hochschule|technische|technion|politecnico|polytechni\w*|"
    r"[ée]cole|istituto|instituto|centrum|akademi\w*|academia|tech|clinic|international|computers|electronics|"
    r"dipartimento|departamento|d[ée]partement)\b|"
    # Russian bylines' affiliations and posts ("Черняев А. В., студент 4 курса кафедры системного
    # программирования СПбГУ"), and degrees and ranks ("к.т.н.", "с. н. с."): never a name
    r"\b(?:университет\w*|институт\w*|кафедр\w*|факультет\w*|лаборатори\w*|академи\w*|студент\w*|аспирант\w*|"
    r"магистрант\w*|бакалавр\w*|доцент\w*|профессор\w*|ассистент\w*|преподавател\w*|сотрудник\w*|инженер\w*|"
    r"заведующ\w*|директор\w*|(?-i:[кд]\.\s?[а-я]{1,2}\.(?:-[а-я]\.)?\s?н\.|[смв]?\.?\s?н\.\s?с\.))(?!\w)", re.I)
# Affiliations known by their capitals ("TU Delft", "IIT Bombay", "SRI International",
# "Meta AI"): matched in capitals only, so a name ("Ai Chen") is none
_ORG_CAPS = re.compile(r"\b(?!(?:With|Of|For|And|The|Under|By|In|On)\b)[A-Z][\w&.-]*\s+Limited\b(?=\s*(?:[,.;)]|$|\d))|\b(AI|TU|IIT|IIIT|SRI|KAIST|KAUST|CSAIL|CWI|INESC|KTH|MPI|DFKI|NTT|NUS|HKUST|UCL|UCSD|UCSB|"
                       r"UIUC|USC|NYU|MSR|FAIR|PARC|DEC|SRC|BBN|NIST|NIH|JPL|LANL|LLNL|ORNL|CERN|RIKEN|SAP|CSL|SE|INP)\b")
_ORG_TITLE = re.compile(r"\b(universit\w*|institut\w*|laborator\w*|department|dipartimento|departamento|"
                        r"d[ée]partement|dept\.|faculty|college|"
                        r"corporation|inc\.|ltd\.?|gmbh|school of|centre for|center for)\b", re.I)
# Countries an address names, alone a place's words
_COUNTRIES = (r"ireland|england|scotland|wales|britain|germany|france|italy|spain|portugal|"
              r"netherlands|holland|belgium|denmark|sweden|norway|finland|switzerland|austria|poland|"
              r"hungary|czech|russia|greece|canada|usa|u\.s\.a\.?|america|japan|china|india|"
              r"korea|singapore|australia|zealand|brazil|argentina|mexico")
# and those that are words of a subtitle or a name too, a place's only after a city
_COUNTRIES_AFTER_CITY = (r"turkey|iran|egypt|chile|colombia|taiwan|vietnam|thailand|malaysia|indonesia|"
                         r"pakistan|bangladesh|nigeria|kenya|ukraine|romania|bulgaria|croatia|serbia|slovenia|slovakia|estonia|latvia|"
                         r"lithuania|luxembourg|iceland|cyprus|qatar|saudi arabia|lebanon|morocco|tunisia|philippines|israel|jordan")
_PLACE = re.compile(
    r"\b(" + _COUNTRIES + r"|africa|asia|europe|"
    r"street|st\.|road|rd\.|avenue|ave\.?|square|drive|boulevard|blvd|place|murray hill|\w*stra(?:ß|ss)e|"
    r"heights|new haven|valley|city|beach|lake|bay|plaza|building|room|floor|suite|box|"
    r"santa|san|los|las|saint|mount|northern|southern|eastern|western|"
    r"new york|new jersey|california|massachusetts|connecticut|texas|illinois|"
    r"pennsylvania|oregon|arizona|ontario|quebec|cambridge|oxford|london|paris|"
    r"berlin|munich|zurich|lisbon|lisboa|bologna|belfast|edinburgh|toronto|seattle|boston|"
    r"berkeley|stanford|princeton|ithaca|pittsburgh|redmond|chicago|atlanta|"
    r"tucson|heidelberg|beijing|tokyo|delhi|bangalore|"
    r"new south wales|kingdom|united states|republic|emirates|mountain view|menlo park|palo alto|sunnyvale|cupertino|"
    r"yorktown|armonk|hong kong|tel aviv|haifa|jerusalem|janeiro|s[ãa]o paulo|amsterdam|copenhagen|"
    r"stockholm|vienna|wien|prague|madrid|barcelona|rome|roma|milan|milano|geneva|lausanne|hamburg|"
    r"dresden|saarbr[üu]cken|karlsruhe|aachen|darmstadt|kaiserslautern|potsdam|montr[ée]al|vancouver|"
    r"waterloo|ottawa|sydney|melbourne|brisbane|canberra|auckland|seoul|shanghai|hangzhou|shenzhen|"
    r"nanjing|taipei|kyoto|osaka|mumbai|chennai|hyderabad|kanpur|redwood|austin|houston|dallas|urbana|"
    r"champaign|ann arbor|evanston|minneapolis|providence|amherst|baltimore|raleigh|chapel hill|irvine|"
    r"riverside|pasadena|la jolla|salt lake|boulder|rochester|philadelphia|michigan|wisconsin|"
    r"minnesota|ohio|maryland|colorado|utah)\b", re.I)
_STATE = re.compile(r"\b(A[LKZR]|C[AOT]|DE|FL|GA|HI|I[DLNA]|K[SY]|LA|M[EDAINSOT]|N[EVHJMYCD]|O[HKR]|PA|RI|"
                    r"S[CD]|T[NX]|UT|V[TA]|W[AVIY]|UK)\b")
# Place words that are people's names too ("Gerard Roma", "Milan Vojnović", "Austin
# Clements", "Jimmy Wales"): on their own they make no line an address — an address names
# its country, state or a city that is none ("Austin, Texas", "Paris, France")
_NAMELIKE = {"austin", "irvine", "raleigh", "rochester", "holland", "england", "wales", "berlin", "paris",
             "milan", "roma", "houston", "dallas", "hamburg"}
# Countries that end an address only after its city ("Rehovot, Israel", a scan's "Rehovot.
# Israel", "Nairobi, Kenya"): on their own they are words of a subtitle ("Evidence from
# Kenya", "The Jordan Curve Theorem") or names ("Michael I. Jordan", "Israel Koren")
_COUNTRY_AFTER_CITY = re.compile(
    r"(?:,|(?<=[^\W\d_]{2})\.)\s*(?:" + _COUNTRIES_AFTER_CITY + r")\.?$",
    re.I)
# "JUAN DE LA CRUZ": a particle in capitals is no state (Delaware, Louisiana, Alabama) when a
# word of the name follows it
_PARTICLE_STATE = re.compile(r"\b(?:DE|LA|AL)(?=\s+(?!USA\b)[A-Z])")


def _org(text: str) -> bool:
    """An organisation named on the line (an affiliation, not a name)."""
    return bool(_ORG.search(text) or _ORG_CAPS.search(text))


def _place(text: str) -> bool:
    """A place or a state's code on the line (an address, not a name)."""
    # (a place's word opening a hyphenated word is a given name's part: "Bay-Wei Chang")
    if any(m.group(0).lower() not in _NAMELIKE and not (m.group(0).islower() and m.group(0) in _PARTICLES)
           and text[m.end():m.end() + 1] not in ("-", "‐") for m in _PLACE.finditer(text)):
        return True
    if _COUNTRY_AFTER_CITY.search(text.strip()):
        return True
    states = _STATE.findall(text)
    return len(states) > len(_PARTICLE_STATE.findall(text))


# A company's legal form after its name ("Red Hat, Inc.", "Acme, Ltd."): the name is no person's
_LEGAL_FORM = re.compile(r"(?:inc|ltd|llc|corp|co|gmbh|plc|s\.?a|b\.?v|ag)\.?", re.I)
# (a particle, "van", "ul", is a word of letters too)
_NAME_WORD = re.compile(r"^(?:[^\W\d_][^\W\d_]*(?:[-'’][^\W\d_]+)*\.?|(?:[^\W\d_]\.-?)+)$")
# (Urdu's "ul", "ur", "ud": "Mian Fahim ul Haq", "Zia ur Rehman")
_PARTICLES = {"van", "von", "der", "den", "de", "del", "della", "di", "da", "du", "le", "la", "las", "los",
              "dos", "das", "bin", "ibn", "al", "y", "ter", "op", "ul", "ur", "ud"}
_STOP_AUTHORS = re.compile(r"^(abstract|summary|introduction|keywords|key words|index terms|"
                           r"categories|general terms|ccs concepts|contents|preface|foreword|"
                           # (a section's number opening its heading, not a row of footnote marks
                           # set over the names: "1 2" over "Marcos Kawazoe Aguilera, Carole …")
                           r"\d+\.?\s+introduction|1\s(?![\d\s,∗*†‡§¶]*$)|1\s+2\s+3\b|"
                           # a Chinese paper's abstract, key words, introduction, contents
                           r"[\[【]?\s*(?:摘\s*要|关\s*键\s*[字词]|引\s*言|目\s*录))", re.I)
# An affiliation opened by its footnote's number and run on past a comma, under a name:
# "1 School of Psychology, University of Birmingham," (a section's heading has no comma)
_NUMBERED_AFFILIATION = re.compile(r"^\d\s+[A-Z][^,]*,")
# A thesis's or a report's title page names its committee and its approvers under a heading
# of their role ("Thesis Committee:" / "Jill Fain Lehman, Computer Science Department";
# "Approved:" / "R. C. Amara, Manager …"): they read or signed the work, they did not write it
# (a heading: its word alone or before a colon, not "Accepted at …", "Approved for public release")
_ROLES = re.compile(r"^(?:approved\s+)?(?:(?:thesis|doctoral|dissertation)\s+)?(?:committee|advisors?|supervisors?|"
                    r"readers?|examiners?|reviewers?|approved|accepted|certified)\s*(?::|$)|"
                    r"^(?:supervised|approved|accepted|certified|reviewed)\s+by\b|"
                    r"^指导(?:教师|老师)\s*(?:[:：]|$)", re.I)  # a Chinese paper's "指导教师" (its supervisor)
# an arrow or a minus glued to a word is a mark a font without its own encoding printed for
# "∗" or "†" ("Philip Derrin⇤", "Wenchao Zhou−"), and so is an arrow no text writes set apart
# ("Derrin ⇤,") or a minus before a comma; an arrow a text writes set apart is the text's
# ("Source Code → Natural Language")
# The footnote marks a byline or a title prints after a name ("∗", Elsevier's "⁎", "†", "‡",
# "§", "¶"), for the character classes below
_FOOTNOTE = "∗⁎*†‡§¶"
_FONT_MARK = r"(?:(?<=[^\W\d_])[\u2190-\u21ff\u2212]|(?![→←↔↦⇐⇒⇔])[\u2190-\u21ff]|\u2212(?=\s*(?:,|$)))"
_MARKS = re.compile(r"[" + _FOOTNOTE + r"♯#⋆⋄♮♭♣♦♥♠‖|_]+|" + _FONT_MARK + r"+|(?<=[^\W\d_])\d+(,\d+)*|\^\S*|\(\d+\)")
# Superscripts: footnote marks, and small type set over the title's line (a running head,
# "^(Operating)Self-st^(System)abili^szing" is "Self-stabilizing" under "Operating Systems")
_TITLE_MARKS = re.compile(r"(?<![A-Z])[∗*]+|[∗*]+(?!-\w)|[†‡§¶♯⋆⁎]+|\^\([^)]*\)|\^[0-9" + _FOOTNOTE + r"]+|\^[a-z](?=\s|$)|\^[^\s(]")
# (and the IRE's before it, whose lowest grade was "Associate": "DAVID A. HUFFMAN, ASSOCIATE, IRE")
_GRADE = re.compile(r",?\s*\(?\b(?:(?:(?:senior|life|(?:graduate\s+)?student|associate)\s+)?(?:member|fellow)|associate),?\s+"
                    r"(?:ieee|ire)\b\)?,?", re.I)
_SUFFIX = re.compile(r"Jr\.?|Sr\.?|II|III|IV")
_HONORIFIC = re.compile(r"^(?:prof\.|professor|dr\.|mr\.|mrs\.|ms\.)\s+", re.I)
# A job's title stacked under a name as an affiliation is ("Bradley C. Kuszmaul" / "Chief
# Architect"), or after it ("Peter Ferrie, Senior Anti-Virus Researcher, Microsoft Corporation")
_JOB_WORDS = {"chief", "architect", "scientist", "researcher", "manager", "president", "founder", "co-founder",
              "cofounder", "ceo", "cto"}
# Words of a repository's cover ("CITATIONS  READS", "SEE PROFILE"): no part of a name
_NOT_NAME = _JOB_WORDS | {"citations", "reads", "profile", "publications", "see", "view", "downloads", "followers",
             "the",  # "The Boeing": no one's name starts with an article
             "thème", "theme",  # INRIA's report cover: "Thème COM"
             "symposium", "conference", "workshop", "proceedings", "journal", "transactions",
             # a banner or a subtitle set like a byline ("TURING AWARD LECTURE", "A Position Paper")
             "lecture", "award",
             # a version's label set like one ("(Detailed Summary)", "Extended Abstract", "Preliminary Draft")
             "summary", "abstract", "extended", "preliminary", "draft",
             # a genre's label under a title ("A Technical White Paper"; Herbert H. Paper is a name)
             "technical",
             # a title's words ("On Artificial Intelligence" wrapped under the title)
             "on", "of", "for", "from", "with", "into", "towards", "toward", "via", "using",
             # a portal's cover label ("Document Version" / "Publisher's PDF, also known as …")
             "version",
             # a company's unit under a name ("FreeBSD Services, Ltd")
             "services",
             # IBM Research's report label: "Limited Distribution Notice"
             "notice",
             # a German report series under the byline ("Forschungsberichte" / "Bericht 28")
             "bericht", "berichte", "forschungsbericht", "forschungsberichte", "arbeitsbericht",
             # a grant's line under a report's byline ("SUPPORTED BY" / "ADVANCED RESEARCH PROJECTS AGENCY")
             "supported", "sponsored", "funded"}
# Words a sentence citing others opens with, no one's given name: "Following Laporte et al."
# ("Per" is one: Per Stenström)
_PROSE_OPENERS = {"following", "according", "unlike", "like", "as", "see", "after", "before", "from", "in",
                  "with", "cf.", "citing", "extending", "building", "since", "while", "whereas", "revisiting",
                  "beyond"}
# A subject's words: a line whose every "name" holds one, and no initial, is a title's or a
# heading's ("O-RAN Security Threat Modeling and Risk Assessment", "Related Work", "Big Data"),
# not a byline; one name of a list may hold one (Deepesh Data, Linqi Song …), and so may a
# name with an initial (Mitchell L. Model)
_SUBJECT_WORDS = {"security", "threat", "threats", "assessment", "modeling", "modelling", "analysis", "learning",
                  "data", "model", "models", "mining",
                  "network", "networks", "networking", "system", "systems", "architecture", "architectures",
                  "algorithm", "algorithms", "computing", "computation", "evaluation", "performance",
                  "management", "processing", "framework", "survey", "detection", "attack", "attacks",
                  "protocol", "protocols", "software", "hardware", "distributed", "database", "databases",
                  "programming", "optimization", "verification", "semantics", "neural", "related",
                  "specification", "specifications", "requirements", "interface", "interfaces",
                  "query", "queries", "optimizer", "optimizers", "compiler", "compilers"}
# job words that are surnames too ("Stephen W. Director", "Micah S. Officer", "Merwan H. Engineer"):
# a job title only after a rank ("Senior Engineer", "Managing Director", "Chief Officer")
_JOB_SURNAME = {"director", "engineer", "officer"}
_JOB_RANK = {"senior", "principal", "staff", "lead", "managing", "executive", "technical", "general", "chief",
             "research", "software", "program", "project", "deputy", "associate", "assistant", "distinguished"}


def _job_word(words: list[str], i: int) -> bool:
    """``words[i]`` names a job: a job's word, or a word that is a surname too after a rank."""
    return words[i] in _JOB_WORDS or words[i] in _JOB_SURNAME and i > 0 and words[i - 1] in _JOB_RANK


def _job_title(text: str) -> bool:
    """A job's title ("Senior Anti-Virus Researcher", "Managing Director"), not a name."""
    words = [w.lower().strip(".,") for w in text.split()]
    return any(_job_word(words, i) for i in range(len(words)))


def _job_line(text: str) -> bool:
    """A line that is a job's title and nothing else, "Independent Researcher", "Chief
    Architect" (not a subtitle holding one: "Notes from a Chief Architect")."""
    words = [w.lower().strip(".,") for w in text.split()]
    return 1 <= len(words) <= 4 and _job_word(words, len(words) - 1) \
        and not any(w in _SMALL_WORDS or w in {"every", "young", "working"} for w in words)


# "A · B": Springer's separator; "Nuno Preguiça — Marc Shapiro": INRIA's
_SPLIT = re.compile(r"\s*(?:;|,|\band\b|\bAND\b|&|[·•]|\s{3,})\s*|\s+[—–]\s+")
_EMAIL = re.compile(r"\S+@\S+|\{[^}]*\}\s*@|https?://|www\.|(?<=\w)\.(?-i:com|edu|org|net)\b|"
                    r"(?-i:\b[A-Z0-9-]+(?:\.[A-Z0-9-]+)+\.(?:COM|EDU|ORG|NET))\b", re.I)
#: a project's name with an "@" and no host after it ("SETI@home", "Folding@home"): no address
_AT_NAME = re.compile(r"\b[A-Z][A-Za-z]*@[a-z]+\b(?![.@\w])")

# English month names, and the German and French ones a European paper dates itself with
# ("31. Dezember 2016", "12 juillet 1998")
_MONTH = (r"(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|"
          r"sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?|"
          r"januar|februar|m[äa]rz|mai|juni|juli|oktober|dezember|"
          r"janvier|f[ée]vrier|mars|avril|juin|juillet|ao[ûu]t|septembre|octobre|novembre|d[ée]cembre)\.?")
_Y = r"(1[6-9]\d\d|20[0-4]\d)(?![’']?s\b)"  # (not a decade: "the 1970’s", "the 1960s")
# Tier 1: copyright lines; tier 2: venue lines; tier 3: dates printed alone.
# "−c 2014. The copyright of this document …": a © whose circle the text layer lost or read as a
# dash, at the start of a line that speaks of copyright
_COPYRIGHT = re.compile(r"(?:(?:©|\(c\)|copyright|[°◦○◯⃝]\s?c\b|\bc\s?[°◦○◯⃝])\s*(?:©\s*)?|^c\s+(?=[A-Z])|^[−–-]?c\s+(?=(?:1[6-9]\d\d|20[0-4]\d)\b[^\n]*(?:copyright|rights|licen[cs]))"
                        # (a scan's "01984 IEEE": the © read as a zero glued to its year)
                        r"|(?<![\d$.,/-])0(?=(?:19|20)\d\d\s+(?:IEEE|ACM)\b))(?:[^\d\n]{0,40}?)" + _Y, re.I)
# A footnote citing another work ("1Nyquist, H., “Certain Factors …”, 1924"): its venue
# and year are that work's.
_CITED = re.compile(r"^\W*\d*\s*[A-Z][\w'’-]+,\s+(?:[A-Z]\.\s*)+|[“\"][^”\"]{8,}[”\"]")
_VENUE = re.compile(r"\b(?:proceedings|proc\.|journal|transactions|trans\.|vol\.|volume|conference|"
                    r"symposium|workshop|pvldb|sigplan|sigops|sigmod|osdi|sosp|nsdi|popl|pldi|icfp|"
                    r"usenix|lisa|vldb|podc|stoc|focs|ismm|oopsla|ecoop|acm|ieee|siam|letters|"
                    r"report|rs-|tr-|thesis|submitted|submission|published|publication date|"
                    r"appears|to appear|printed in|annals|review|bulletin|magazine|notices|news|"
                    r"accepted (?:at|to|for|in|by)|lncs|lnai|lecture notes)(?!\w)",
                    re.I)
# A publisher's name: "North Holland Publishing Company", "… Publishers", or a press's
# opening a line or a sentence ("… (Eds.) IOS Press, 2005", "The University of Chicago
# Press, 1962"; not "In Press", "The Press release", "Reprinted from …, The MIT Press")
_PUBLISHER = re.compile(r"\b(?:publishing company|publishers)\b|"
                        r"(?:^|(?<=[.)])\s)(?-i:(?!In\b)[A-Z][\w&]*\s+(?:(?:[A-Z][\w&/]*|of|the|and)\s+){0,5}Press)\b(?!\s+release)", re.I)
_ORD = r"(?:\^?\(?(?:st|nd|rd|th)\)?)?"  # "7th", "7^th" (a superscript)
# A journal's or a course's season: "Spring 2010", "Fall 1999"
_SEASON = r"(?:spring|summer|fall|autumn|winter)"
_DATE = re.compile(r"(?:\b" + _MONTH + r",?\s+(?:\d{1,2}" + _ORD + r"(?:\s*[-–]\s*\d{1,2}" + _ORD + r")?[,.]?\s+)?"
                   + _Y + r"\b)|"
                   r"(?:\b" + _SEASON + r",?\s+" + _Y + r"\b)|"
                   r"(?:\b\d{1,2}" + _ORD + r"\.?\s+(?:of\s+)?" + _MONTH + r",?\s+" + _Y + r"\b)|"
                   r"(?:\b" + _Y + r"[./-](?:0?[1-9]|1[0-2])[./-](?:0?[1-9]|[12]\d|3[01])\b)|"
                   r"(?:\b\d{1,2}-" + _MONTH + r"-" + _Y + r"\b)|"  # "06-Dec-2004"
                   # a clock's stamp: "Wednesday October 2 8:18 PM EDT 1996" (a line with a time
                   # of two digits, "20:18", is none: _NOT_A_DATE's, a log's)
                   r"(?:\b" + _MONTH + r"\s+\d{1,2}\s+\d{1,2}:\d\d(?::\d\d)?(?:\s*[AP]M)?(?:\s+[A-Z]{2,4})?\s+" + _Y + r"\b)|"
                   r"(?:^\s*" + _Y + r"\s*$)|"
                   r"(?:date:\s*" + _Y + r")|"
                   r"(?:" + _Y + r"\s*年\s*\d{1,2}\s*月)", re.I)  # Chinese: "2009 年 1 月"
# "6/22/2001", "22/06/2001": a day and a month in numbers, either way round, alone on a line
# of the page's head (a table's cells of dates are data; a browser's print stamp has its
# time, "23/05/2017, 13:00")
_NUMERIC_DATE = re.compile(r"\s*(?:0?[1-9]|[12]\d|3[01])/(?:0?[1-9]|[12]\d|3[01])/" + _Y + r"\s*")
# a masthead of a name of three capitals, alone on its line: "BIT 6 (1966), 58-65" (not a reference's
# tail wrapped to a page's top, "ACM 27, 12 (Dec. 1984), 1190-1195.")
_CAPS_MASTHEAD = re.compile(r"^(?-i:[A-Z]{3})\s\d{1,4}\s\(" + _Y + r"\),?\s*\d{1,5}\s*[-–—]+\s*\d{1,5}\s*$")
# A Chinese series' running head, its year and its name, opening its line or cell: "IOI2004
# 国家集训队论文", "IOI’2002 冬令营讲稿", "2009 年全国信息学奥林匹克冬令营论文" (not an abstract's
# "在2015年会议上")
_CN_SERIES_HEAD = re.compile(r"^\s*[A-Z]{0,4}['’]?" + _Y + r"\s*年?\s*[\u4e00-\u9fff]{0,12}?(?:集训队|冬令营|夏令营|论文集|学术会议|年会)(?!议)")
# Cambridge University Press's running head: "TLP 11 (4–5): 575–591, 2011.", "J. Functional
# Programming 12 (4&5): 295–318, 2002." (the journal, its volume, issue, pages and year)
_PRESS_HEAD = re.compile(r"^(?-i:[A-Z][\w.&]*(?:\s+[A-Z][\w.&]*){0,4})\s\d{1,4}\s\(\d{1,2}(?:\s*[-–&]\s*\d{1,2})?\):\s?"
                         r"\d{1,5}\s*[-–—]+\s*\d{1,5},\s" + _Y + r"\b")
# what Cambridge's running head carries beside its volume and year, and a reference's tail
# wrapped to a page's top ("Artificial Intelligence 13 (1): 81–132, 1980.") does not: the
# press's © (a scan's "!C"), its name, its DOI prefix
_PRESS_MARK = re.compile(r"©|\(c\)|!C|\bcambridge\b|\b10\.1017/", re.I)
# a typescript's date right under its title with a year of two digits: "3/3/70" (an ITS memo's)
_SHORT_NUMERIC_DATE = re.compile(r"\s*(?:0?[1-9]|1[0-2])/(?:0?[1-9]|[12]\d|3[01])/([4-9]\d)\s*")
# A journal's masthead: "Theoretical Computer Science 321 (2004) 5 – 12", "J. of X (2008) 19(2), 185-224"
_MASTHEAD = re.compile(r"^[^\d()]{4,90}?\s(?:\d{1,4}(?:[,.:]\s?\d{1,4})?\s*)?\((?:" + _MONTH + r"\s+)?" + _Y
                       + r"\),?\s*(?:(?:\d{1,4}(?:\(\d{1,3}\))?[,:]?\s*)?"
                       r"(?:pp?\.\s*)?\d{1,5}\s*[-–—]+\s*\d{1,5}\b"
                       # (Springer's "Distributed Computing (1986) 1:26 39", its dash lost: the
                       # volume's colon and two numbers ending the line)
                       r"|\d{1,4}:\s?\d{1,5}\s+\d{1,5}\s*$)"
                       # or the volume and pages before the year (Academic Press's "JOURNAL OF
                       # ALGORITHMS 6, 163-180 (1985)")
                       # (a journal's name, not a reference's authors and abbreviation, "KNUTH, D. E. … J.
                       # Algorithms 6, 163-180 (1985)", nor an erratum's or a comment's citation of it)
                       r"|^(?!(?:erratum|errata|corrigendum|addendum|comments?|reply|retraction|see|cf)\b)"
                       r"(?![^\d()]*(?:(?-i:\b[A-Z]\.\s*(?:[A-Z]\.\s*)*[A-Z][a-z])|&|\bet al\b))"
                       r"[^\d()]{4,90}?\s\d{1,4}\s*[,:]\s*\d{1,5}\s*[-–—]+\s*\d{1,5}\s*\((?:" + _MONTH + r"\s+)?" + _Y
                       + r"\)\s*\d{0,5}\s*$", re.I)
# "Sensors 2015, 15, 16412-16429; doi:10.3390/s150716412": a journal's name, year, volume and pages
_YEAR_VOLUME_PAGES = re.compile(r"^[^\W\d][^\d()]{2,60}?\s" + _Y + r",\s*\d{1,4}(?:\(\d{1,3}\))?,\s*\d{1,6}\s*[-–—]\s*\d{1,6}\b")
# "Vol. 8, No. 1-2 (2016) 1–130": a journal's volume, issue, year and pages (Foundations and
# Trends prints its © of the year after under it)
# or "Vol. 51, No. 1, January–February 2014", the issue's months (AIAA prints the © of the
# year it went online in a note)
_ISSUE_LINE = re.compile(r"^vol(?:ume)?\.?\s*\d{1,4}\s*,\s*(?:no|issue)\.?\s*\d{1,4}(?:\s*[-–]\s*\d{1,4})?\s*(?:\((?:"
                         + _MONTH + r"\s+)?" + _Y + r"\)|,\s*(?:" + _MONTH + r"\s*[-–/]\s*)?" + _MONTH + r"\s+" + _Y + r"\W*$)", re.I)
def _foot_issue(line: Line, first: PageText) -> bool:
    """A journal's issue line at the page's foot as a line of its own: the journal's name
    (no comma in it: not a note naming authors, "… Bell and L. J. LaPadula, J. ACM, Vol. 21,
    …"), the issue's month, and no line of a note running on into it from just over it."""
    text = line.text.strip()
    if not re.match(r"[^,]+,\s*(?:vol|no\.|number)", text, re.I) or not re.search(_MONTH + r"\s+" + _Y, text, re.I):
        return False
    height = max(line.bbox[3] - line.bbox[1], 1.0)
    # (a copyright's or a price code's line over it runs into nothing: "0001-0782/78/0700-0558 $00.75")
    return not any(0 < line.bbox[1] - ln.bbox[3] < 0.8 * height and ln.bbox[0] < line.bbox[2] and line.bbox[0] < ln.bbox[2]
                   and not ln.text.rstrip().endswith((".", ":")) and not _COPYRIGHT.search(ln.text)
                   and not _PRICE_CODE.search(ln.text) and not _ISSN.search(ln.text) for ln in first.lines if ln is not line)


# A report's number with its year, on a line of its own: "MSR-TR-2007-33", "UCB/EECS-2010-123",
# "HPL-2003-183" (not "MIT-LCS-TR-194": no year in it; not a standard's "IEEE-1800-2017", whose
# last part is its year; not a flaw's "CVE-2017-5753", reported before the paper)
_REPORT_YEAR = re.compile(r"^(?!(?:IEEE|ISO|IEC|ANSI|CVE|RFC|DIN|ECMA)\b)(?:[A-Z]{2,}[/-])*[A-Z]{2,}-((?:19|20)\d\d)"
                          r"-(?!(?:19|20)\d\d\W*$)\d{1,4}\W*$")
# "Theory and Applications of Categories, Vol. 1, No. 1, 1995, pp. 1–10.", "Reprints in …, No. 6,
# 2004, pp. 1–10.": a journal's name, its volume or number, the issue's year (and pages); not
# another issue's ("Originally published in …", "Reprinted from …", "Erratum to: …"). At the
# page's head, or at its foot: "ACM Computing Surveys, Vol. 18, No. 4, December 1986",
# "ACM Transactions on Computer Systems, Vol. 2, No. 3, August 1984, Pages 181-197." (the
# issue's year, over the © of the year it was printed)
_NAMED_ISSUE = re.compile(r"^(?!(?:originally|reprinted|erratum|corrigendum|comments?\s+on|reply\s+to|see|presented|"
                          r"cited|extended|an?\s+(?:earlier|preliminary|extended|shorter|revised)|preliminary)\b|"
                          r"cf\.\s|[^,]*\b(?:appeared|published|version|based\s+on|continued|sequel|superseded|"
                          r"also\s+in|part\s+[IVX\d]+|cited\s+as)\b)"
                          r"[^\W\d][^\d()]{2,90}?,\s*(?:(?:vol(?:ume)?\.?|no\.|number)\s*\d{1,4},\s*){1,2}(?:"
                          + _MONTH + r"\s+)?" + _Y + r"\s*(?:,\s*(?:pp?\.|pages?)\s*\d{1,5}\s*[-–—]+\s*\d{1,5})?\W*$", re.I)
_CURRENT_VERSION = re.compile(r"\bdate of current version\s+(?:\d{1,2}\s+)?" + _MONTH + r"\s+(?:\d{1,2},?\s+)?" + _Y,
                              re.I)
_CELL_DATE = re.compile(r"(?:\d{1,2}\s+)?" + _MONTH + r",?\s+(?:\d{1,2},?\s+)?" + _Y, re.I)
_DATE_LABEL = re.compile(r"\b(?:revised|date|dated|version|draft|updated|last|this|of|on|as)\b:?|[^\w\s]", re.I)
_VENUE_NOTE = re.compile(r"^\W*(?:\S+\s+){0,4}?(?:appears?|appeared|to appear|published|proceedings|proc\.|presented|"
                         r"submitted|reprinted|copyright|in:)", re.I)
# Companies known by one word of their own, which may follow a name on its line ("Hugh C. Lauer
# Xerox"); a generic word (School, Corporation, Group) may end a name's institution instead
_COMPANY = re.compile(r"xerox|ibm|google|microsoft|intel|oracle|amazon|facebook|yahoo!?|akamai|nokia|hp|"
                      r"hewlett-packard|at&t|bbn|dec|digital|sun|apple|vmware|inria|cnrs|nasa", re.I)
# "in: Philosophy of Science, 10(1943), S. 18–24.": a journal's volume and year (in the page's
# head, or a note saying it is the venue: a footnote citing "Monatshefte Math. Phys., 38 (1931)" is another work's)
# A medical journal's line: "J Am Med Inform Assoc 2012;19:116–120" (year; volume: pages)
_VANCOUVER = re.compile(r"\b" + _Y + r";\s*\d{1,4}(?:\(\d+\))?:\s*[A-Za-z]?\d+")
_VOLUME_YEAR = re.compile(r",\s?\d{1,3}\s?\(" + _Y + r"\)")  # (not "Programming in Modula-2 (1982)")
# A report's own issue line, no mark before it (a footnote's citation of an earlier report has
# one): "Technical Report ISE-TR-01-03, Department of …, July 2001.", "Technical Report No. 01-03, July 2001."
_REPORT_ISSUED = re.compile(r"^tech(?:nical|\.)?\s+report\s+(?:no\.?\s*|#\s*)?(?=[\w/.-]*\d)[\w/.-]+"
                            r"(?:,[^\n]{0,160}?)?,\s*(?:" + _MONTH + r"\s+)?" + _Y + r"\.?$", re.I)
# A journal's note of its review, "Manuscript received June, 1992; revised January, 1993.": its
# dates are no paper's, up to the publication's own ("Date of publication April 10, 2019") or a copyright
_REVIEW_NOTE = re.compile(r"^\W*manuscript\s+received\b.*?(?=\bdate\s+of\s+(?:publication|current\s+version)\b|"
                          r"©|\(c\)|\bcopyright\b|$)", re.I | re.S)
# an author's copy naming where it was published: "The full citation of this article is …",
# "Please cite this article in press as: …"
_CITATION_NOTE = re.compile(r"^\W*(?:the )?(?:full )?citation (?:of|for) this (?:article|paper|chapter|report) is\b|"
                            r"^\W*please cite this (?:article|paper|chapter) (?:in press )?as\b|^\W*full citation\s*:", re.I)
_PUBLISHED_IN = re.compile(r"^\W*(?:(?:to be )?published|appear(?:s|ed)) in\b", re.I)  # (a journal's "To be published in: …, 1991")
_THIS_PAPER_APPEARED = re.compile(r"^\W*this (?:paper|article|report) (?:has )?(?:been )?(?:published|appear(?:s|ed)) in\b"
                                  # (not a version before this one: "… appeared in preliminary form in …")
                                  r"(?!\s+(?:an?\s+)?(?:\w+\s+){0,2}(?:form|version)\b|\s+(?:an?\s+)?(?:preliminary|abbreviated|"
                                  r"condensed|extended|revised|earlier|early|shorter|different|abridged|partial|summary)\b|\s+part\b)", re.I)
_ACRONYM_YEAR = re.compile(r"\b[A-Z]{3,}\s+" + _Y + r"\b")  # "CIDR 2007", "OSDI 2004": a venue
_PERMISSION = re.compile(r"permission|copyright|©|licen[cs]e", re.I)
# "Date: June 11, 2013", "Date of this document: 2007.12.25." (the note under a paper's first page
# that names its permanent ID)
# (a bare "Date:" or the publication's, not another event's after a word: "access date:",
# "Received date:", "Print date:", "Download date:")
_LABELLED_DATE = re.compile(r"(?<![^\W\d_]{3} )(?<![^\W\d_]{3}  )"
                            r"\b(?:(?:publication|issue|release|document|revision|version)\s+)?date"
                            r"(?: of this (?:document|paper|version|report))?:\s*"
                            r"(?:\w+\.?\s+)?"
                            r"(?:\d{1,2},?\s+)?" + _Y, re.I)
# A note on another version of the paper: its copyright is that version's ("This is an extended
# and revised version of a paper (© Copyright 2001 by ACM) presented at …", under "© 2002 Kluwer")
_EARLIER = re.compile(r"\b(?:extended|revised|expanded|full|longer|earlier|previous|preliminary|shorter|conference)"
                      r"\s+(?:and\s+\w+\s+)?version of\b", re.I)
# "POPL '82", "ISMM'08", "UIST ‘95"; after "Proceedings of" without the apostrophe ("Proceedings
# of VLDB 85, Stockholm")
_SHORT_YEAR = re.compile(r"\b[A-Z]{2,}[ -]?['’‘](\d\d)\b|"
                         # (not a journal named "Proceedings of the IEEE" and its page: "… IEEE 37")
                         r"\bProc(?:eedings|\.)\s+(?:of\s+)?(?:the\s+)?(?!IEEE\b|IRE\b)[A-Z]{2,}\s+(\d\d)(?=\s*,\s*[A-Z]|\s*$)|"
                         # USENIX's foot: "Security ’06: 15th USENIX Security Symposium"
                         r"\b[A-Z][a-z]+\s?['’‘](\d\d):\s*\d{1,2}(?:st|nd|rd|th)\s+USENIX\b")
# The code of an article's price in its copyright line, which holds the year's last two digits:
# ACM's "0001-0782/78/1100-0966 $00.75", IEEE's "CH2884-5/90/0000/0002$01.00", ACM's and IEEE's
# "0-89791-447-3/91/0009/0096...$1.50", Elsevier's "0167-4048/85/$3.30" (a scan's "0004-541 1/92/…")
# — read on any line
# without a "©" (a scan garbles it: "$01 .0001990 IEEE"), ranked under a venue's line
_PRICE_CODE = re.compile(r"(?:\b[\dlO]{4}-[\dlO]{3}\s?[\dXlO]|\bCH\d{4}-\d|\b\d{1,5}-\d{1,7}-\d{1,7}-[\dX])/(\d\d)/"
                         r"(?:\d{4}(?:-\d{4})?(?:/\d{4})?)?\s*(?:\.\.\.)?\s*\$\s?\d")
# An entry of a reference list, its number first: "10. Mackworth, A.K. Consistency in …", "[3]
# Lamport, L. Time, …" (a scan reads the 1 of "11." as "I")
_REFERENCE_ENTRY = re.compile(r"^\[?[\dIl]{1,3}[.\]]\s+[A-Z][\w'’-]+,\s+(?:[A-Z]\.\s*)+")
_PAGES = re.compile(r"\b(?:pages?|pp?\.)\s*\d{1,5}\s*(?:[-–—]+\s*\d{1,5})?", re.I)
_ISSN = re.compile(r"\be?-?ISSN\b\W{0,3}\d{4}-\d{3}[\dX]", re.I)  # "ISSN 1999-4893": no year
_PAGE_OF = re.compile(r"\bpage\s+\d+\s+of\s+\d+\b", re.I)
_ANY_YEAR = re.compile(r"(?<![\d.])" + _Y + r"(?![\d])")
_NOT_A_DATE = re.compile(r"^(downloaded|re-?keyed|retrieved|accessed|printed on|generated|received|"
                         r"last (modified|updated|revised))|((?<![;\d])\d\d:\d\d)|permanent id|"  # (a time; not "2012;19:116")
                         # (not ENTCS's banner over its pre-proceedings' papers, "COCV'03 Preliminary Version")
                         r"preliminary versions?\b(?!\s*$)|earlier version|"
                         r"updated version|original version|"
                         r"originally (appeared|published)|extended abstract of|"
                         r"mathematics subject classification|\bsurvey\b|受付|採録|受理|收稿|修回|修改时间|投稿", re.I)


@dataclass
class PaperRecord:
    """What a citation needs to name a paper. Empty fields were not found: never guessed."""

    title: str | None = None
    authors: list[str] = field(default_factory=list)
    year: int | None = None
    doi: str | None = None
    arxiv: str | None = None
    #: where the fields were read: "page" (the first page), "pdf" (the PDF's own fields,
    #: where the page agrees), "zotero" (a reference library)
    source: str = "page"

    def label(self, fallback: str) -> str:
        return citation_label(self.authors, self.year, self.title, fallback)

    def metadata(self, fallback: str) -> dict[str, Any]:
        """The fields as ``ParsedDocument.metadata`` stores them (docs/pdf.md)."""
        out: dict[str, Any] = {"title": self.title, "authors": list(self.authors), "year": self.year}
        if self.doi:
            out["doi"] = self.doi
        if self.arxiv:
            out["arxiv"] = self.arxiv
        out["label"] = self.label(fallback)
        return out


# A sheet a repository put before the paper: ResearchGate's ("See discussions, stats, and
# author profiles for this publication at …", a few of the authors, "CITATIONS  READS") and
# HAL's ("HAL Id: hal-…", the deposit's date). The paper's own first page comes next.
_COVER = re.compile(r"see discussions, stats,? and author profiles for this publication|"
                    r"researchgate\.net/publication|^hal id\s*:|hal is a multi-disciplinary open access archive|"
                    # a USENIX proceedings' cover, bound in front of one of its papers
                    r"rights to individual papers remain with the author|"
                    # an archive's sheet: "The following “Microprocessor Manual System 00” by Joseph
                    # A. Weisbecker was provided courtesy of Hagley Museum and Library"
                    r"^the following\b.{0,200}\bwas provided\s+courtesy of\b|"
                    # a university's research portal (Pure): "Edinburgh Research Explorer" /
                    # "Citation for published version:" / "Link to publication record in …"
                    r"^citation for published version\b|^link to publication record in\b|"
                    # Berkeley's technical reports open on a page of their copyright alone
                    r"^copyright\s*©?\s*(?:19|20)\d\d,\s*by the author\(s\)\.?\s*$|"
                    # MIT's open-access sheet ("Persistent URL: http://hdl.handle.net/…"), ePub(WU)'s
                    # ("This version is available at: http://epub.wu.ac.at/392/"), IOP's ("View the
                    # article online for updates and enhancements.")
                    r"^persistent url\s*:|^this version is available at\s*:|"
                    r"^view the article online for updates and enhancements|"
                    # the federal clearinghouse's sheet before a scanned report it reproduces
                    r"^limitations in reproduction quality\W*$|"
                    # AAAI's digital library: "This Is a Publication of" / "The American Association for
                    # Artificial Intelligence" / "This electronic document has been retrieved from the …"
                    r"^this electronic document has been retrieved from the\b",
                    re.I | re.M)
# An institutional repository's sheet (ResearchSpace@Auckland's): "This is the Accepted Manuscript
# version. …", "Suggested Reference" and its citation, "Items in ResearchSpace are protected by
# copyright …" — a short page of notes (a working paper's own first page may print the first two)
_REPOSITORY_SHEET = re.compile(r"^this is the (?:author'?s? )?(?:accepted manuscript|published|submitted|final) version\b"
                               r"(?s:.*)^suggested (?:reference|citation)\s*$(?s:.*)^items in [\w@ .-]{1,40}? are protected by copyright",
                               re.I | re.M)
# ResearchGate's line of the kind and date of the work: "Conference Paper · November 2013"
_COVER_DATE = re.compile(r"^(?:article|conference paper|chapter|book|thesis|preprint|technical report|"
                         r"working paper|research proposal)\b[^·\n]{0,200}·\s*(?:" + _MONTH + r"\s+)?" + _Y + r"\b",
                         re.I | re.M)


# A library's sheet before a scanned report (Carnegie Mellon's): the copyright law's notice
# and nothing else on the page
_WARNING = re.compile(r"^notice\W+warning concerning copyright restrictions", re.I)


def cover_sheet(page: PageText | None) -> bool:
    """Is this page a repository's cover sheet, the paper's first page after it?"""
    if page is None:
        return False
    if len(page.lines) <= 12 and any(_WARNING.match(ln.text.strip()) for ln in page.lines[:3]):
        return True
    if len(page.lines) <= 30 and _REPOSITORY_SHEET.search("\n".join(ln.text for ln in page.lines)):
        return True
    return bool(_COVER.search("\n".join([page.margin or "", *(ln.text for ln in page.lines[:60])])))


_JSTOR = re.compile(r"\bjstor\b", re.I)
_JSTOR_AUTHORS = re.compile(r"^Author\(s\)\s*:\s*(.+)$")
_JSTOR_SOURCE = re.compile(r"^Source\s*:.*?\((?:[^()\d]*\s)?" + _Y + r"\)")


def _jstor_record(first: PageText | None) -> PaperRecord | None:
    """JSTOR's cover page prints the record as fields: the title, "Author(s): A. M.
    Turing", "Source: Mind, New Series, Vol. 59, No. 236 (Oct., 1950), pp. 433-460"; the
    article's own first page after it is an old scan, read worse."""
    if first is None or not any(_JSTOR.search(ln.text) for ln in first.lines[:40]):
        return None
    lines = _rows(sorted(first.lines[:40], key=lambda ln: (round(ln.bbox[1] / 3), ln.bbox[0])))
    found = next(((i, m) for i, ln in enumerate(lines) if (m := _JSTOR_AUTHORS.match(ln.text.strip()))), None)
    if found is None or found[0] == 0:
        return None
    at, authors = found
    names = _names(authors.group(1)) or []
    title: list[Line] = []
    for line in reversed(lines[max(0, at - 4):at]):  # the title's lines right over the authors'
        if title and not _joins(line, title[0], 1.0) or not line.text.strip():
            break
        title.insert(0, line)
    source = next((m for ln in lines[at + 1:at + 4] if (m := _JSTOR_SOURCE.match(ln.text.strip()))), None)
    return PaperRecord(title=_join_title(title), authors=names, year=int(source.group(1)) if source else None)


# A memorandum's fields: "MEMORANDUM FOR: …", "FROM: J. C. R. Licklider", "SUBJECT: Topics …"
_MEMO_FIELD = re.compile(r"^(MEMORANDUM FOR|FROM|SUBJECT|TO|DATE|RE)\s*:\s*(.*)$")


def _memo_record(first: PageText | None) -> PaperRecord | None:
    """A memorandum prints its record as fields in capitals at the top of its page: its
    subject is its title, its sender its author ("FROM: J. C. R. Licklider" / "SUBJECT:
    Topics for Discussion at the Forthcoming Meeting"); the agency's letterhead over them is
    no title. A page is one when it says so ("MEMORANDUM") or prints three fields or more,
    with no line over them in a larger type but a letterhead in capitals (a picture of an
    e-mail's "FROM:" and "SUBJECT:" under a paper's title is none)."""
    if first is None:
        return None
    lines = [ln for ln in first.lines[:15] if not ln.figure]
    found = [(at, m) for at, ln in enumerate(lines) if (m := _MEMO_FIELD.match(ln.text.strip()))]
    names = {m.group(1) for _, m in found}
    if not {"FROM", "SUBJECT"} <= names or not ("MEMORANDUM" in " ".join(ln.text for ln in lines[:8]).upper()
                                               or len(names) >= 3):
        return None
    size = lines[found[0][0]].size
    # a title over them in larger type: a paper's page, its fields a picture's (a letterhead
    # in capitals is a memo's: "DEPARTMENT OF THE NAVY", "MEMORANDUM")
    if any(ln.size > 1.15 * size and not ln.text.isupper() for ln in lines[:found[0][0]]):
        return None
    # a field goes on on the lines set closer under it than the fields are to one another
    # (a single-spaced memo's body starts right under its subject), or set under its text
    spacing = max(0.0, min(lines[b].bbox[1] - lines[a].bbox[3] for (a, _), (b, _) in zip(found, found[1:])))
    fields: dict[str, str] = {}
    for at, m in found:
        line = lines[at]
        text, last = m.group(2).strip(), line
        hang = line.boxes[m.start(2) + len(line.text) - len(line.text.lstrip())][0] \
            if m.group(2) and len(line.boxes) == len(line.text) else None
        for more in lines[at + 1:at + 3]:
            close = more.bbox[1] - last.bbox[3] < 0.5 * spacing
            hung = hang is not None and abs(more.bbox[0] - hang) < 3 and more.bbox[1] - last.bbox[3] < last.bbox[3] - last.bbox[1]
            if _MEMO_FIELD.match(more.text.strip()) or not (close or hung):
                break
            text, last = f"{text} {more.text.strip()}", more
        fields.setdefault(m.group(1), text)
    if not fields.get("FROM") or not fields.get("SUBJECT"):
        return None
    return PaperRecord(title=fields["SUBJECT"], authors=_names(fields["FROM"]) or [], year=page_year(first))


def _cover_citation_year(cover: PageText) -> int | None:
    """The year of the citation a HAL cover prints under "To cite this version:" ("…
    SECON, Sep 2023, Madrid, Spain. ⟨10.1109/…⟩"), never its "Submitted on" date; or a
    repository's under "Suggested Reference" ("Langley, P., … (2014). Abductive …"), up to
    the next heading."""
    text = "\n".join(ln.text for ln in cover.lines[:40])
    at = re.search(r"to cite this version\s*:|^suggested (?:reference|citation)\s*$", text, re.I | re.M)
    if not at:
        return None
    cited = re.split(r"\n\s*HAL Id\b|\n\s*(?:copyright|version|general rights)\s*\n", text[at.end():], maxsplit=1,
                     flags=re.I)[0]
    cited = re.sub(r"10\.\d{4,9}/\S+|hal-\d+\S*|\S*\d{4}\.\d{4,5}\S*", " ", cited)  # identifiers' digits
    dated = _DATE.search(cited)
    years = [_year_of(dated)] if dated else [int(y) for y in _ANY_YEAR.findall(cited)]
    return years[-1] if years else None


def _cover_copyright(cover: PageText) -> int | None:
    """The proceedings' copyright a USENIX cover prints ("© 2003 by The USENIX
    Association"): the year of the volume the paper appeared in."""
    found = _COPYRIGHT.search("\n".join(ln.text for ln in cover.lines[:40] if "usenix" in ln.text.lower()))
    return int(found.group(1)) if found else None


_HYPERREF_KEY = re.compile(r"\s*\bpdf(author|subject|keywords|creator)\s*=\s*", re.I)


def _hyperref_fields(info: dict[str, str]) -> dict[str, str]:
    """A /Title holding hyperref's other keys, a comma missed in ``\\hypersetup`` ("Pivot
    Tracing: … Systems pdfauthor=Jonathan Mace, Ryan Roelke, Rodrigo Fonseca"): the title
    is what comes before them, and an empty /Author is the "pdfauthor=" part."""
    parts = _HYPERREF_KEY.split(info.get("Title") or "")
    if len(parts) < 3:
        return info
    fields = dict(info, Title=parts[0].strip())
    for key, value in zip(parts[1::2], parts[2::2]):
        if key.lower() == "author" and not (fields.get("Author") or "").strip():
            fields["Author"] = value.strip()
    return fields


#: an HTML entity written out whole in a PDF's field ("&rsquo;", "&#039;"), not "Open&copyleft"
_ENTITY = re.compile(r"&(?:#\d+|#x[0-9a-fA-F]+|[A-Za-z][A-Za-z0-9]*);")


def paper_record(info: dict[str, str], first: PageText | None, file_name: str = "",
                 after: PageText | None = None) -> PaperRecord:
    """The record of a paper from its PDF info dictionary and its first page. When the
    first page is a repository's cover sheet (``cover_sheet``), the record is read from
    ``after``, the page after it; its year, when that page prints none, from the cover's
    line of the work's kind and date (never the upload's or the deposit's date)."""
    if after is not None and cover_sheet(first):
        record = paper_record(info, after, file_name)
        if record.year is None and first is not None:
            dated = _COVER_DATE.search("\n".join(ln.text for ln in first.lines[:20]))
            record.year = int(dated.group(1)) if dated else _cover_citation_year(first) or _cover_copyright(first)
        return record
    info = {key: _ENTITY.sub(lambda m: html.unescape(m.group()), value)  # "Doesn&rsquo;t"
            for key, value in _hyperref_fields(info).items()}
    ids = document_ids(info, first, file_name)
    fielded = _jstor_record(first) or _memo_record(first)
    if fielded is not None:
        fielded.doi, fielded.arxiv = ids.get("doi"), ids.get("arxiv")
        return fielded
    title_lines = _title_lines(first, file_name)
    page_title = _untagged(_unmarked(_cjk_unmarked(_join_title(title_lines), title_lines), first))
    subtitle = _subtitle(title_lines, first)
    if subtitle and page_title:
        sub_text = _join_title(subtitle) or ""
        page_title = f"{page_title}{sub_text}" if re.match(r"[—―]", sub_text) and _CJK.search(sub_text) else \
            f"{page_title}{'' if page_title.endswith((':', '?', '!')) else ':'} {sub_text}"
        title_lines = [*title_lines, *subtitle]
    if page_title and first is not None and first.scan:
        # "Untraceable Electronic Cash t", "TOWARDS A THEORY OF TYPE STRUCTURE t": a scan's OCR
        # reads the dagger after a title as a t
        # (a text layer's "… at Time t" keeps it)
        page_title = re.sub(r"(\b(?!(?i:time|student|noncentral|statistic|test|variable|parameter)\b)"
                            r"[A-Z](?:[a-z]{2,}|[A-Z]{2,}))\s+t$", r"\1", page_title)
    title = _agreeing_title(info, first, page_title) or page_title
    title = _spelled_as_named(title, file_name)
    title = _spelled_as_printed(title, title_lines, first)
    title = _unplussed(title, first)
    title = _dehyphenated(title, title_lines, first)
    if title and title != page_title and first is not None:
        title_lines = _rest_of_title(title_lines, set(_plain_words(title)), first)
    authors = _page_authors(first, title_lines)
    if not authors and title_lines and first is not None:
        # an author printed over the title (a journal's style: "Per Martin-Löf" / "ON THE …")
        top = min(title_lines, key=lambda ln: ln.bbox[1])
        over = [ln for ln in first.lines if ln.bbox[3] <= top.bbox[1] and top.bbox[1] - ln.bbox[3] < 3 * (top.bbox[3] - top.bbox[1])
                and ln.bbox[0] < top.bbox[2] and top.bbox[0] < ln.bbox[2] and not _running_head(ln)]
        if over:
            # (a typescript dates its byline in a cell of its own: "Dec. 7, 1975      Ralph C. Merkle")
            authors = _names(" ".join(_undated(ln) for ln in _byline_upwards(max(over, key=lambda ln: ln.bbox[3]), first))) or []
    if title:  # a title's last line set apart ("FIRST-ORDER LOGIC") is no author
        authors = [a for a in authors if not (len(_key(a)) >= 6 and _key(a) in _key(title))]
    if not authors:
        authors = _agreeing_authors(info, first)
    if not authors and title_lines:
        authors = _page_authors(first, title_lines, wide=True)
    if not authors and title_lines and first is not None:
        authors = _inverted_byline(first, title_lines) or _standfirst_writer(first, title_lines)
    dated_byline = None
    if not authors and title_lines and first is not None:
        dated_byline = _dated_byline_under(first, title_lines)
        authors = dated_byline[0] if dated_byline else []
    if not authors and title_lines and first is not None:
        authors = _name_heading_page(first, title_lines)
    authors = _column_major(authors, first)
    authors = _marks_read_as_letters(authors, first)
    authors = _surnames_wrapped(authors, first)
    authors = _names_run_together(authors, first)
    cited = _self_citation(first, title)
    if cited is not None and first is not None:
        authors = _as_cited(authors, cited, first)
    # the year the paper's citation of itself gives outranks what the page prints elsewhere
    # (PVLDB's first page number, "2022", at the foot of a 2019 paper), but for an arXiv stamp
    stamped = first is not None and bool(first.margin) and bool(_ARXIV.search(first.margin or ""))
    year = _subject_year(info, first) or (None if stamped or cited is None else cited.year) \
        or page_year(first, title_lines) or (cited.year if cited else None) or arxiv_year(ids.get("arxiv")) \
        or (dated_byline[1] if dated_byline else None) or _report_title_year(title)
    return PaperRecord(title=title, authors=authors, year=year, doi=ids.get("doi"), arxiv=ids.get("arxiv"))


# A periodic report's title dates it: "Aegean Dendrochronology Project December 1996 Progress
# Report", "Annual Report 1994", "1993 Status Report"
# (the date next to "report", not the subject's: "The March 2011 Tohoku Earthquake: A … Report",
# "A Critique of the 1983 Final Report", "Mars 2020 … Review Report")
_REPORT_TITLE_YEAR = re.compile(r"(?<!\bthe )(?<!\bof )\b(?!mars\b)(?:" + _MONTH + r"|" + _SEASON + r")\.?\s+" + _Y
                                + r"\s+(?:\w+\s+)?report\b|"
                                r"(?<!\bthe )(?<!\bof )\b" + _Y + r"\s+(?:annual|progress|status|final|interim|quarterly|activity)\s+report\b|"
                                r"(?<!\bthe )(?<!\bof )(?<!\bon )\b(?:annual|progress|status|activity)\s+report\s*(?:for\s+)?" + _Y + r"\W*$", re.I)


def _report_title_year(title: str | None) -> int | None:
    """The year a periodic report's title names, when the page prints no other: a title's
    years are otherwise its subject's ("Dendrochronological Progress as of 1995")."""
    for match in _REPORT_TITLE_YEAR.finditer(title or ""):
        # ("… of the December 1983 Final Report": the month before the year is the subject's too)
        if not re.search(r"\b(?:the|of)\s+(?:" + _MONTH + r"|" + _SEASON + r")\.?\s+$", title[:match.start()] if title else "", re.I):
            return int(next(g for g in match.groups() if g))
    return None


def _name_heading_page(first: PageText, title: list[Line]) -> list[str]:
    """One person's name alone on the page's first line, far over a title with no byline
    under it: a reprint in a collection heads its first page with its author ("Robert W.
    Floyd" over "ASSIGNING MEANINGS TO PROGRAMS"). Only a whole name of two to four words
    with an initial ("React Native" over a book's title is no name), over the title."""
    top = min(title, key=lambda ln: ln.bbox[1])
    over = [ln for ln in first.lines if ln.bbox[3] <= top.bbox[1]]
    if len(over) != 1 or over[0].bbox[1] > 0.15 * first.height or len(over[0].cells) > 1:
        return []
    text = over[0].text.strip()
    names = _names(text)
    if not names or len(names) != 1 or _key(names[0]) != _key(text) or not 2 <= len(text.split()) <= 4 \
            or _org(text) or _place(text) or not re.search(r"\b[A-Z]\.\s", text):
        return []
    word = r"[^\W\d_](?:[^\W\d_]|['’-](?=[^\W\d_]))+"
    initial = r"[^\W\d_]\.\s*"
    if not re.fullmatch(r"(?:" + word + r"\s+|" + initial + r")(?:" + initial + r")*(?:" + word + r"\s+)?" + word
                        + r"(?:,?\s+(?:Jr|Sr)\.?|\s+I{2,3})?", text) \
            or not all(w[0].isupper() for w in text.replace(",", " ").split()) \
            or re.match(r"(?:to|for|in|part|chapter|appendix|section|annex|figure|table|exercise|lemma|volume|schedule|form|type|u)\b",
                        text, re.I) \
            or over[0].size < 0.95 * _body_size(first.lines) \
            or re.search(r"\b(?:memoriam|tribute|obituary|interview|remembering|in memory)\b", _join_title(title) or "", re.I):
        return []
    return names


def _undated(line: Line) -> str:
    """A line's text less its cells that hold a date alone."""
    dated = [c for c in line.cells if _DATE.fullmatch(c.strip())]
    return " ".join(c.strip() for c in line.cells if c not in dated) if dated else line.text.strip()


def _byline_upwards(last: Line, first: PageText) -> list[Line]:
    """A byline over a title that wraps: the line right over the title and the lines over it
    that end in a comma, a list going on (CACM's "by Michael Armbrust, Armando Fox, …," /
    "Anthony D. Joseph, …," / "and Matei Zaharia" over "A View of Cloud Computing")."""
    lines = [last]
    while True:
        top = lines[0]
        height = max(top.bbox[3] - top.bbox[1], 1.0)
        above = [ln for ln in first.lines if ln.bbox[3] <= top.bbox[1] + 0.3 * height and top.bbox[1] - ln.bbox[3] < 0.8 * height
                 and ln not in lines and ln.bbox[0] < top.bbox[2] and top.bbox[0] < ln.bbox[2]]
        line = max(above, key=lambda ln: ln.bbox[3], default=None)
        if line is None or not line.text.rstrip().endswith(",") or _names(line.text) is None:
            return lines
        lines.insert(0, line)


# --- title ------------------------------------------------------------------------------

def _title_lines(first: PageText | None, file_name: str = "") -> list[Line]:
    """The title: the lines in the largest type in the upper part of the first page (set
    alike and close together), skipping banners, stamps and one-word logos. On a page
    set in one size (a thesis cover, a note), the first line in capitals or bold.

    A file named for its title ("on-the-electrodynamics-of-moving-bodies.pdf", Zotero's
    "Vaswani et al. - 2017 - Attention is all you need.pdf") points at the lines that
    print it when type size alone picks others (a journal's name set larger, a title set
    in the body's type): the title is still what the page prints, never the file's name."""
    if first is None or not first.lines:
        return []
    group = _title_among(first.lines, first)
    group = _head_word(group, first) + group
    slug = _slug_words(file_name)
    if slug:
        # "Knight-CONS.pdf", Zotero's "Lamport - 1978 - …": an author's name in the file's
        # name is no word of the title; a name-shaped line of the page says which it is
        printed = {w for ln in first.lines[:60] for n in (_line_names(ln) or []) for w in _plain_words(n)
                   if not set(_plain_words(n)) <= slug}  # "Artificial Intelligence" is the title's
        slug = slug - printed or slug
    if slug and _coverage(slug, group) < _NAMED_COVER:
        named = _named_lines(first, slug)
        if named and _coverage(slug, named) > _coverage(slug, group):
            group = named
    if len(group) > 1 and any(_mostly_cjk(ln.text) for ln in group):
        # "最小割模型在信息学竞赛中的应用" over "Applications of Minimum Cut Model" / "in
        # Informatics": a title's translation, set under it, is no line of it; the first
        # line's script is the title's (an English title's CJK word, "Particle 了", is none)
        own = _mostly_cjk(min(group, key=lambda ln: ln.bbox[1]).text)
        group = [ln for ln in group if _mostly_cjk(ln.text) == own or re.match(r"\s*[—―]", ln.text)]
    if slug and group:
        # a last line the rules left out for looking like a name ("… the Standpoint of" /
        # "Artificial Intelligence"): its words are the file name's too
        group = _rest_of_title(group, slug | _SMALL_WORDS, first, alike=True)
    return group


# A sign no word prints inside its letters ("simpli#ed", "ORIER'A'~u"). Apostrophes, dots,
# "+" and "@" ("SETI@home") are words' own.
_MISREAD_SIGN = re.compile(r"(?<=.)[#()~^*|!{}\[\]$%?<>\\_;](?=.)")


def _spelled_as_named(title: str | None, file_name: str) -> str | None:
    """A scan's text layer misreads a word of the title ("The SmaHhllk-76 Programming
    System", "The Level Ancestor Problem simpli#ed"); a file named for the title spells it.
    A word that reads as misread (``_misread``) and is close to a word of the name the
    title lacks takes the name's spelling, in the page's case: the word the page prints,
    read right. Only when the title prints most of the name's words, and never a word the
    text layer reads cleanly ("HyperCard" stays for "hypertext", "SETI@home" for "setiathome")."""
    slug = _slug_words(file_name)
    if not title or not slug:
        return title
    missing = slug - set(_plain_words(title))
    if not missing or len(missing) > len(slug) / 2:
        return title
    parts = re.split(r"(\s+|-|\()", title)  # "Network(RNN)": the word and its bracket apart
    for i, part in enumerate(parts):
        core = re.sub(r"[’']s$", "", part.strip(".,:;!?\"'()[]"))  # "McCarthy's": the word, its "'s" kept
        letters = re.sub(r"[^a-z]", "", core.lower())
        if len(letters) < 4 or not _misread(core):
            continue
        signed = _MISREAD_SIGN.search(core) is not None
        near = [w for w in missing if w[0] == letters[0] and not w.isdigit()
                and abs(len(w) - len(letters)) <= 2  # a misread keeps a word's length: "OpenRAN" is no "ORAN"
                and not (letters.startswith(w) or w.startswith(letters))  # "PostgreSQL", "postgres"
                and (SequenceMatcher(None, letters, w).ratio() >= 0.7 or signed and letters[:4] == w[:4])]
        if len(near) != 1:
            continue
        word = near[0]
        spelled = word.upper() if core[:2].isupper() else word.capitalize() if core[:1].isupper() else word
        parts[i] = part.replace(core, spelled)
        missing.discard(word)
    return "".join(parts)


def _spelled_as_printed(title: str | None, title_lines: list[Line], first: PageText | None) -> str | None:
    """A scan's title misread where its body reads the word right ("Multidimensional
    Ageregates" over "aggregates" twice in the abstract; "Purely Rtnctional Operating
    Systems" over "purely functional" in the text). A title word of eight letters or more
    that the page prints nowhere else takes the spelling of the one word of the page outside
    the title, printed twice or more, of its length that differs in a letter in five (two in
    ten), in the title's case. Shorter words are left: one or two letters make another word
    of seven ("Looking" and "locking", "Finding" and "winning", "Passing" and "raising").
    Letters that differ only at the word's end are a word's ending, not a misreading
    ("Analyses" stays for "analysis"). Only a word read by OCR or holding a pair of letters
    English words hardly have ("tn") is taken for misread, only the body's prose counts (not
    a running head's "Transactions" or a permission block's "Computing"), and a word whose
    first five letters the page prints in another word is a word ("Competing" by
    "competition", "Scheduling" by a scan's "scheduIing")."""
    if not title or first is None:
        return title
    kept = {id(ln) for ln in title_lines}
    body = _body_size(first.lines)
    everywhere = {w.lower() for ln in first.lines if id(ln) not in kept for w in re.findall(r"[A-Za-z]+", ln.text)}
    counts = Counter(w.lower() for ln in first.lines if id(ln) not in kept and abs(ln.size - body) <= 0.15 * body
                     for w in re.findall(r"[A-Za-z]+", ln.text))
    parts = re.split(r"([A-Za-z]+)", title)
    for i, part in enumerate(parts):
        word = part.lower()
        if i % 2 == 0 or len(word) < 8 or word in everywhere \
                or not (first.source == "ocr" or any(word[j:j + 2] not in COMMON_PAIRS for j in range(len(word) - 1))) \
                or any(w[:5] == word[:5] for w in everywhere):
            continue
        near = [w for w, n in counts.items() if n >= 2 and len(w) == len(word) and _misread_as(word, w)]
        if len(near) == 1:
            spelled = near[0]
            parts[i] = spelled.upper() if part.isupper() else spelled.capitalize() if part[:1].isupper() else spelled
    return "".join(parts)


def _unplussed(title: str | None, first: PageText | None) -> str | None:
    """"… for Points and Rectangles+": a footnote's plus glued to a title's last word, when the
    page prints the footnote ("+ This work was supported …"); "Google+" keeps its plus."""
    if title and first is not None and re.search(r"(?<=[a-z]{3})\+$", title) \
            and any(re.match(r"\+\s*[A-Z][a-z]", ln.text.strip()) for ln in first.lines):
        return title[:-1]
    return title


def _misread_as(read: str, word: str) -> bool:
    """``read`` is ``word`` with a letter in five misread, not all in its last two."""
    differ = [i for i, (a, b) in enumerate(zip(read, word)) if a != b]
    return 0 < len(differ) <= len(word) // 5 and min(differ) < len(word) - 2


def _misread(word: str) -> bool:
    """A word a text layer misread: a sign inside its letters ("simpli#ed", "ORIER'A'~u"),
    or a capital after a small letter that leaves a piece no word is made of, three
    letters or more with no vowel ("SmaHhllk"; not "HyperCard", "OpenRAN", "McCarthy")."""
    if _MISREAD_SIGN.search(word):
        return True
    pieces = re.split(r"(?<=[a-z])(?=[A-Z])", word)
    return len(pieces) > 1 and any(len(p) >= 3 and p.isalpha() and not re.search(r"[aeiouyAEIOUY]", p) for p in pieces)


# A file's name read as a title: its words, less the ones that say nothing of the paper
_FILE_WORDS = re.compile(r"^(?:pdf|paper|papers|final|draft|preprint|copy\d*|v\d+|full|version|camera|ready|"
                         r"slides|extended|revised|accepted|submitted|main|article|et|al)$")
_SMALL_WORDS = {"a", "an", "the", "of", "and", "or", "for", "to", "in", "on", "at", "by", "with", "from",
                "is", "are", "as", "its", "s", "via", "into", "using", "towards", "toward"}
_NAMED_COVER = 0.75  # a share of the name's words printed in the lines


def _plain_words(text: str) -> list[str]:
    folded = unicodedata.normalize("NFKD", text)
    folded = "".join(c for c in folded if not unicodedata.combining(c))
    return [w for w in re.split(r"[^a-z0-9]+", folded.lower()) if w]


def _slug_words(file_name: str) -> set[str]:
    """The words of a file's name that could be its title's ("ORAN-B5G_A_Next-Generation_…"),
    or nothing when it names no title (an arXiv id, "p5506-groen", "paper1"): at least two
    words of four letters or more, none of them a number."""
    stem = re.sub(r"\.pdf$", "", file_name.rsplit("/", 1)[-1], flags=re.I)
    stem = re.sub(r"(?<=[a-z])(?=[A-Z][a-z])", " ", stem)  # "ScatterAlloc", "deepLearning"
    words = {w for w in _plain_words(stem) if not w.isdigit() and not _FILE_WORDS.match(w)
             and w not in _SMALL_WORDS and len(w) > 1}
    return words if sum(len(w) >= 4 for w in words) >= 2 else set()


def _coverage(slug: set[str], lines: list[Line]) -> float:
    """The share of the file name's words that ``lines`` print."""
    printed = set(_plain_words(" ".join(ln.text for ln in lines)))
    return sum(w in printed for w in slug) / len(slug) if slug and lines else 0.0


def _named_lines(first: PageText, slug: set[str]) -> list[Line]:
    """The lines in the upper part of the page, set alike and close together, that print
    most of the file name's words and little else (a title, not a paragraph that happens
    to use them)."""
    lines = _rows(sorted(first.lines, key=lambda ln: (round(ln.bbox[1] / 3), ln.bbox[0])), gap=2.0)
    banner = _banners(lines)
    best: tuple[float, float, float] | None = None
    found: list[Line] = []
    for start in lines:
        if start.bbox[1] >= 0.6 * first.height or id(start) in banner or not _title_shaped(start):
            continue
        if not slug & set(_plain_words(start.text)):
            continue
        group = sorted(_grow(start, lines), key=lambda ln: ln.bbox[1])
        words = [w for w in _plain_words(" ".join(ln.text for ln in group)) if w not in _SMALL_WORDS]
        cover = _coverage(slug, group)
        if cover < _NAMED_COVER or not words or sum(w in slug for w in words) < 0.5 * len(words) \
                or not (_long_enough(group) or cover == 1 and set(words) <= slug):
            continue  # one word is a title only when it is all the file's name says ("CONS")
        rank = (cover, max(ln.size for ln in group), -group[0].bbox[1])
        if best is None or rank > best:
            best, found = rank, group
    return found


def _title_among(lines: list[Line], first: PageText) -> list[Line]:
    # "Cloud" and "Storage" on one baseline are one line of the title (a scan's text layer
    # sets the words of a large title two em apart: "High Performance"  "Buffer")
    lines = _rows(sorted(lines, key=lambda ln: (round(ln.bbox[1] / 3), ln.bbox[0])), gap=2.0)
    if not lines:
        return []
    limit = first.height * 0.75
    banner = _banners(lines)
    contents = min((ln.bbox[1] for ln in lines if _CONTENTS.match(ln.text.strip())), default=first.height)
    display = 1.2 * _body_size(lines)
    candidates = [ln for ln in lines if ln.bbox[1] < min(limit, contents)
                  and _title_shaped(ln, wide=first.scan and ln.size >= display)
                  and id(ln) not in banner]
    if not candidates:
        return []
    body = _body_size(lines)
    ranked = sorted(candidates, key=lambda ln: (-round(ln.size), ln.bbox[1]))
    name_shaped: Line | None = None
    for start in ranked:
        if start.size < body * 1.1:
            break
        if start.figure and any(not ln.figure and ln.bbox[1] < start.bbox[1] and ln.size >= body * 1.1
                                for ln in candidates):
            continue  # words on a picture (a diagram's title) under the paper's own title
        # (a title's spaced dash parts no names: "Cache Coherence – Directory Protocols")
        named = len(_line_names(start) or [])
        if re.search(r"\s[—–-]\s", start.text):
            named = min(named, 1)
        stack = _stack_of_names(start, lines) if named == 1 else []
        if stack and any(ln.bbox[3] <= min(piece.bbox[1] for piece in stack) for ln in candidates):
            continue  # a byline of names stacked one a line under the title, set larger than it
        if named >= 2 or named == 1 and _name_under_title(start, lines, candidates, body):
            name_shaped = name_shaped or start
            continue  # the authors' line set larger than the title (a font of another family)
        group = _grow(start, lines)
        if _long_enough(group) or group == [start] and _footnoted_word(start) and _byline_under(start, lines):
            return group
    if name_shaped is not None:
        # no other line in large type reads as a title: the largest one that looked like
        # names is it ("Securing O-RAN   Open Interfaces" are two capitalised pairs)
        group = _grow(name_shaped, lines)
        if _long_enough(group):
            return group
    for start in sorted(candidates, key=lambda ln: ln.bbox[1]):
        text = start.text.strip()
        if text.isupper() and _heading_under_prose(start, lines):
            continue  # a section's heading under the abstract ("ARTIFICIAL REALITIES"), an epigraph's "A. PERLIS"
        if text.isupper() and re.search(r"\b[A-Z]\.\s", text) and re.search(r"\s[-–—]\s", text) \
                and len(_line_names(start) or []) >= 2:
            continue  # a byline in capitals over the title, names with initials: "M. NEWTON - K. A. WARDLE - …"
        if (text.isupper() or start.bold or len(lines) <= 15) and 2 <= _word_total(text) <= 15:
            # capitals or bold, or the first line of a cover page with a few lines on it;
            # the body's type follows it, so its lines end at the first name
            group = _grow(start, lines, names_end=True)
            if text.isupper():
                # a typescript's title in capitals, the prose right under it in the same type
                # ("SECURE COMMUNICATIONS OVER INSECURE CHANNELS" / "People have been …")
                prose = [_prose_cased(ln.text) for ln in group]
                group = group[:prose.index(True)] if True in prose else group
            return group if _long_enough(group) else []
    # A page set in one type (a typescript): the first line centred over the text, above
    # the prose; the lines under it in the same type up to the first name.
    left, right = min(ln.bbox[0] for ln in lines), max(ln.bbox[2] for ln in lines)
    width = max(right - left, 1.0)
    firsts = sorted(candidates, key=lambda ln: ln.bbox[1])[:6]

    def centred(start: Line) -> bool:
        # centred on the text's span, or on the page when a note in its margin widens that
        # span ("Appears in Fast Software Encryption …" set from the page's edge)
        middle = (start.bbox[0] + start.bbox[2]) / 2
        return min(abs(middle - (left + right) / 2), abs(middle - first.width / 2)) < 0.05 * width \
            and (start.bbox[2] - start.bbox[0] < 0.75 * width or _byline_under(start, lines))

    # or, where no narrow line is centred, set flush left as the page's first line with a byline
    # under it ("Artificial Realities, Virtual Communities, and Knowbots" / "Chris Dede"); not a
    # date, nor a dedication's "In honour of" over a name
    flush = bool(firsts) and not any(centred(ln) and ln.bbox[2] - ln.bbox[0] < 0.75 * width
                                     and _names(ln.text.strip()) is None for ln in firsts) \
        and firsts[0].bbox[0] - left < 0.02 * width and _byline_under(firsts[0], lines) \
        and not _DANGLING.search(firsts[0].text.strip()) and not _DATE.search(firsts[0].text) \
        and not _NO_SUBTITLE.search(firsts[0].text)  # (nor a course's "CS 174 Randomized Algorithms")
    for n, start in enumerate(firsts):
        text = start.text.strip()
        if (centred(start) or flush and n == 0) and 2 <= _word_total(text) <= 15 and _names(text) is None:
            group = _grow(start, lines, names_end=True)
            # a venue's note over it in the same type ("Appears in Fast Software Encryption
            # (FSE 2004), …") ends the title upwards
            stamps = [i for i, ln in enumerate(group) if ln.bbox[1] < start.bbox[1] and _stamp(ln.text)]
            group = group[max(stamps) + 1:] if stamps else group
            return group if _long_enough(group) else []
    return []


_HEAD_KICKER = re.compile(r"DRAFT|PRELIMINARY|CONFIDENTIAL|UNCLASSIFIED|CLASSIFIED|SECRET|RESTRICTED|PROPRIETARY|"
                          r"MEMORANDUM|MEMO|NOTICE|NOTES?|ERRATUM|ERRATA|CORRIGENDUM|ADDENDUM|RETRACTION|CORRESPONDENCE|"
                          r"VIEWPOINTS?|EDITORIAL|COMMENTARY|COMMENTS?|OPINION|PERSPECTIVES?|REVIEWS?|ARTICLES?|LETTERS?|"
                          r"REPORTS?|FEATURES?|ESSAYS?|PREFACE|FOREWORD|PROLOGUE|EPILOGUE|APPENDIX|CHAPTER|PART|SECTION|"
                          r"LECTURE|TUTORIAL|SURVEY|KEYNOTE|INVITED|PANEL|POSITION|POSTER|DEMO|WHITEPAPER|DATASHEET|"
                          r"THESIS|DISSERTATION|ANNOUNCEMENT|INTRODUCTION|CONTENTS|OBITUARY|INTERVIEW|SUPPLEMENT|"
                          r"SPOTLIGHT|INSIGHTS?|RESEARCH|NEWS|BRIEFS?|PRACTICE|EDUCATION|HISTORY")


def _head_word(group: list[Line], first: PageText) -> list[Line]:
    """A title's first word set alone in larger capitals right over the rest of it, centred
    on it: an AI memo's "LAMBDA" (16 pt) over "THE ULTIMATE DECLARATIVE" (11 pt), skipped as
    a one-word logo. Only over a title in capitals, with nothing between them."""
    if not group or not all(ln.text.strip().isupper() for ln in group):
        return []
    top = min(group, key=lambda ln: ln.bbox[1])
    over = [ln for ln in first.lines if ln.bbox[3] <= top.bbox[1] + 1 and ln not in group]
    if not over:
        return []
    word = max(over, key=lambda ln: ln.bbox[3])
    text = word.text.strip()
    height = word.bbox[3] - word.bbox[1]
    middle = (top.bbox[0] + top.bbox[2]) / 2
    if not first.scan or not re.fullmatch(r"[A-Z]{4,}", text) or _HEAD_KICKER.fullmatch(text) or _NOT_TITLE.match(text) \
            or word.size < 1.2 * top.size or _org(text) \
            or top.bbox[1] - word.bbox[3] > 1.5 * height \
            or abs((word.bbox[0] + word.bbox[2]) / 2 - middle) > 0.05 * first.width:
        return []
    return [word]


def _prose_cased(text: str) -> bool:
    """A line of three words or more, most of them opening in a small letter: a sentence,
    no line of a title in capitals ("t-DIGESTS", "Intel386 Architecture", "in Ada", "TeX and
    LaTeX" are)."""
    words = text.split()
    return len(words) >= 3 and sum(w[:1].islower() for w in words) > len(words) / 2


def _footnoted_word(line: Line) -> bool:
    """A title of one word with its footnote's number set small and raised after it
    ("Protection¹", read "Protection1"): a logo, which one word in large type mostly is,
    carries no footnote."""
    text = line.text.rstrip()
    if not re.fullmatch(r"[^\W\d_]{4,}\d", text.lstrip()) or len(line.boxes) < len(text):
        return False
    letters = [b for ch, b in zip(text, line.boxes) if ch.isalpha()]
    mark = line.boxes[len(text) - 1]
    height = statistics.median_low(b[3] - b[1] for b in letters)
    # a superscript's box: well under the letters' height (a lining digit's is nearly theirs),
    # its foot well over their baseline (a subscript's, "CO2", sits on or under it)
    return mark[3] - mark[1] < 0.6 * height and mark[3] < max(b[3] for b in letters) - 0.25 * height


def _name_under_title(name: Line, lines: list[Line], candidates: list[Line], body: int) -> bool:
    """One author's name set a little larger than the title right over it, a byline's stack
    under it: "PROGRAMS WITH COMMON SENSE" (14.9 pt) / "John McCarthy" (15.5 pt) / "Computer
    Science Department". Not a short title under a kicker with its author under it ("RESEARCH
    CONTRIBUTIONS" / "Virtual Time" / "Leslie Lamport"), nor a name a title line leads to ("A
    Conversation with" / "John Backus")."""
    height = name.bbox[3] - name.bbox[1]
    under = [ln for ln in lines if ln is not name and 0 <= ln.bbox[1] - name.bbox[3] < 2 * height
             and ln.bbox[0] < name.bbox[2] and name.bbox[0] < ln.bbox[2]]
    if not under:
        return False
    nxt = min(under, key=lambda ln: ln.bbox[1])
    if _line_names(nxt) and not (_org(nxt.text) or _place(nxt.text) or _EMAIL.search(nxt.text)):
        return False  # another name under it: the line is the title over its author
    return any(0 <= name.bbox[1] - ln.bbox[3] < 2 * (ln.bbox[3] - ln.bbox[1])
               and ln.bbox[0] < name.bbox[2] and name.bbox[0] < ln.bbox[2]
               and body * 1.1 <= ln.size and name.size <= 1.15 * ln.size
               and not _DANGLING.search(ln.text.strip()) and not _line_names(ln) for ln in candidates)


def _stack_of_names(name: Line, lines: list[Line]) -> list[Line]:
    """The stack of three names or more, one a line in one type, that ``name`` is one of
    (none: []): a book's or a report's byline set larger than its title ("DAN STEFANICA" /
    "RADOŠ RADOIČIĆ" / "TAI-HO WANG" under "150 MOST FREQUENTLY ASKED QUESTIONS ON QUANT
    INTERVIEWS"), or a title's own lines that read as names ("Denotational Semantics" /
    "Lambda Calculus" / "Category Theory"): which it is, the lines over it say."""
    def one_name(ln: Line) -> bool:
        return abs(ln.size - name.size) <= 0.05 * name.size and len(_line_names(ln) or []) == 1 \
            and not (_org(ln.text) or _place(ln.text))

    def next_to(line: Line, down: bool) -> Line | None:
        height = max(line.bbox[3] - line.bbox[1], 1.0)
        near = [ln for ln in lines if ln is not line and ln.bbox[0] < line.bbox[2] and line.bbox[0] < ln.bbox[2]
                and 0 <= (ln.bbox[1] - line.bbox[3] if down else line.bbox[1] - ln.bbox[3]) < 2 * height]
        if not near:
            return None
        nearest = min(near, key=lambda ln: ln.bbox[1]) if down else max(near, key=lambda ln: ln.bbox[3])
        return nearest if one_name(nearest) else None

    stack = [name]
    for down in (True, False):
        line: Line | None = name
        while line is not None and (line := next_to(line, down)) is not None and len(stack) < 12:
            stack.append(line)
    return stack if len(stack) >= 3 else []


def _body_size(lines: list[Line]) -> int:
    """The type most of a page's letters are set in, rounded to a point (0 on no lines)."""
    sizes = Counter(round(ln.size) for ln in lines for _ in ln.text)
    return sizes.most_common(1)[0][0] if sizes else 0


_JOURNAL_BOX = re.compile(r"^(?:(contents lists? available at)|journal homepage\s*:)", re.I)


def _banners(lines: list[Line]) -> set[int]:
    """Banner lines ("Appeared in Bulletin of the" …) and the lines that go on with them
    in the same type right under them ("American Mathematical Society"); a journal's
    masthead box (Elsevier's: the journal's name between "Contents lists available at …"
    and "journal homepage: …", set as large as a title)."""
    out: set[int] = set()
    box = [(ln.bbox[1], bool(m.group(1))) for ln in lines if (m := _JOURNAL_BOX.match(ln.text.strip()))]
    if box:
        tops = [y for y, contents in box if contents]
        bottoms = [y for y, contents in box if not contents]
        top = min(tops) if tops else min(bottoms) - 60
        bottom = max(bottoms) if bottoms else max(tops) + 60
        out.update(id(ln) for ln in lines if top <= ln.bbox[1] <= bottom)
    for line in lines:
        if _NOT_TITLE.match(line.text.strip()) or any(id(b) in out and _joins(b, line) for b in lines[:lines.index(line)][-3:]):
            out.add(id(line))
    # a journal's running head: its name on the baseline of its volume's banner ("THE
    # ASTRONOMICAL JOURNAL   VOLUME 91, NUMBER 2   FEBRUARY 1986"), set like the title
    heads = [b for b in lines if id(b) in out and _VOLUME_HEAD.match(b.text.strip())]
    # a journal's name set small over its year and volume ("The Annals of Applied Statistics" /
    # "2015, Vol. 9, No. 1, 247–274"): its masthead
    out.update(id(ln) for ln, under in zip(lines, lines[1:]) if _MASTHEAD_VOLUME.match(under.text.strip())
               and 0 <= under.bbox[1] - ln.bbox[3] < under.bbox[3] - under.bbox[1] and ln.size <= 1.2 * under.size)
    out.update(id(ln) for ln in lines if any(b is not ln and abs(b.bbox[1] - ln.bbox[1]) < 2 and abs(b.bbox[3] - ln.bbox[3]) < 2
                                             and (b.bbox[2] < ln.bbox[0] or ln.bbox[2] < b.bbox[0]) for b in heads))
    return out


_MASTHEAD_VOLUME = re.compile(r"^(?:1[6-9]|20)\d\d,\s*vol(?:\.|ume)\s*\d{1,4}\b", re.I)
_VOLUME_HEAD = re.compile(r"^vol(?:\.|ume)\s*\d{1,4}\s*,?\s*(?:no\.|number|issue)\s*\d{1,4}\W*$", re.I)


# a line under a name or a phrase that credits or dedicates: "in collaboration with …", "as told
# to …", "and colleagues", "in honor of …", "with a Foreword by …", "under contract to …"
_CREDIT = re.compile(r"^(?:in (?:collaboration|cooperation|association|conjunction) with|as (?:told|presented|given|prepared)\b|"
                     r"with (?:help|contributions?|assistance|input|support)\b|and (?:others|colleagues|friends|students|co-?workers)\b|"
                     r"in (?:honou?r|celebration|recognition|memory) of|on the occasion of|under (?:contract|grant)\b|"
                     r"with an? (?:foreword|preface|introduction|appendix|afterword|note)\b)", re.I)


def _one_name(line: Line) -> bool:
    """A line that reads as one person's name in a byline's shape: two words, or with an
    initial ("Dan Ingalls", "D. Ingalls"); a subtitle's line read as a name ("Delivering
    Compact Applications") has three words or more and no initial."""
    return bool(_line_names(line)) and (len(line.text.split()) <= 2 or re.search(r"(?-i:\b[A-Z]\.)", line.text) is not None)


def _subtitle(title: list[Line], first: PageText | None) -> list[Line]:
    """The line right under the title in smaller type that is still larger than the body
    and is no name, affiliation or banner: a subtitle ("Squeak" / "A Practical Smalltalk
    Written in Itself"). Under a title that ends in a colon, the lines that finish it in any
    smaller type ("Keys Under Doormats:" / "mandating insecurity by requiring government
    access to all" / "data and communications")."""
    if not title or first is None or not first.lines:
        return []
    last = max(title, key=lambda ln: ln.bbox[3])
    if last.text.rstrip().endswith(":"):
        return _title_after_colon(last, title, first)
    if re.search(r"\breports?\W*$", last.text, re.I) and _report_title_year(_join_title(title)):
        return []  # a dated report's name is whole: the line under it is its first section's heading
    body = _body_size(first.lines)
    height = last.bbox[3] - last.bbox[1]
    dashed = next((ln for ln in sorted(first.lines, key=lambda ln: ln.bbox[1])
                   if ln not in title and 0 <= ln.bbox[1] - last.bbox[3] < 2 * height), None)
    if dashed is not None and re.match(r"[—―]{1,2}\s*\S", dashed.text.strip()) and _CJK.search(dashed.text) \
            and body <= dashed.size <= last.size * 1.05:
        # "由感性认识到理性认识" / "——透析一类搏弈游戏的解答过程": a Chinese subtitle opens with its
        # dash, in any size and a line's space under the title
        return [dashed]
    line = _right_under(last, title, first) or _over_address(last, title, first)
    if line is None or not body * 1.15 <= line.size <= last.size * 0.95:
        return []
    more = _right_under(line, title, first)
    rest = more.text.strip() if more is not None else ""
    if more is not None and abs(more.size - line.size) <= 0.05 * line.size and _title_shaped(line) \
            and re.match(r"(?-i:[a-z])", rest) and _CONTINUING.match(rest) \
            and not _NOT_CONTINUED.match(rest) and not _FROM_A_GROUP.match(rest) and not _CREDIT.match(rest) \
            and _names(rest.split(None, 1)[-1]) is None and len(_line_names(line) or []) < 2 and not _one_name(line) \
            and _subtitle_shaped(Line(text=f"{line.text.strip()} {rest}", boxes=[], bbox=line.bbox,
                                      size=line.size, bold=line.bold, cells=[line.text]), first):
        # a subtitle over two lines, a phrase running over the break ("Delivering Compact
        # Applications" / "from an Exploratory …"): its first line alone may read as a name
        return [line, more]
    if _subtitle_shaped(line, first) and not _wrapped_names(line.text.strip()):
        return [line]
    return []


def _lines_right_under(line: Line, taken: list[Line], first: PageText) -> list[Line]:
    """The lines right under ``line`` (within 1.2 of its heights, over it), not in ``taken``."""
    height = max(line.bbox[3] - line.bbox[1], 1.0)
    return [ln for ln in first.lines if ln not in taken and 0 <= ln.bbox[1] - line.bbox[3] < 1.2 * height
            and ln.bbox[0] < line.bbox[2] and line.bbox[0] < ln.bbox[2]]


def _right_under(line: Line, taken: list[Line], first: PageText) -> Line | None:
    """The one line right under ``line``, if only one."""
    below = _lines_right_under(line, taken, first)
    return below[0] if len(below) == 1 else None


def _over_address(line: Line, taken: list[Line], first: PageText) -> Line | None:
    """The nearer of two lines right under ``line`` when the other is a web or mail address
    ("Open Libernet" / "Take back the Internet" / "www.openlibernet.org")."""
    below = sorted(_lines_right_under(line, taken, first), key=lambda ln: ln.bbox[1])
    if len(below) == 2 and _EMAIL.search(below[1].text) and not _EMAIL.search(below[0].text) \
            and not _NO_SUBTITLE.search(below[0].text) and not _VERSION_TAG.search(below[0].text) \
            and not re.search(r"\b(?:distribute|confidential|revision|working|request for comments)\b", below[0].text, re.I):
        return below[0]  # (not a copy's state: "Working Draft", "Do not distribute", "Revision 3")
    return None


# A copyright's sign opening a line, before its holder's name (a scan's "◯c" for "©")
_COPY_HOLDER = re.compile(r"^(?:©|\(c\)|[◯○]c)\s+(?=[A-Z])")


def _subtitle_shaped(line: Line, first: PageText) -> bool:
    """A phrase a title may go on with: two to twelve words, set like a title's line, and no
    names, affiliation, place, year or byline a scan misread."""
    text = line.text.strip()
    if _COPY_HOLDER.match(text):
        return False  # "© Miguel Garcia, LAMP,": the notes' author as the holder of their copyright
    return _title_shaped(line) and 2 <= len(text.split()) <= 12 and _line_names(line) is None and not _job_line(text) \
        and not _ORG.search(text) and not _PLACE.search(text) and not _ANY_YEAR.search(text) \
        and not _byline_begun(line, first) and "".join(text.split()).lower() not in _NOT_NAME  # ("DRAF T", kerned)


#: the lines a title ending in a colon goes on in, and their words, at most
_COLON_LINES, _COLON_WORDS = 3, 20
# Signs of a line that no title goes on in: a form's bullets, a schematic's "<FLAG /X> = …", a
# copy's state ("Under review"), a course's code ("CS 240")
_NO_SUBTITLE = re.compile(r"[<>=●•■▪◦]|\bunder review\b|\b[A-Z]{2,4}\s?\d{2,4}\b", re.I)


def _title_after_colon(last: Line, title: list[Line], first: PageText) -> list[Line]:
    """The lines under a title's last line that ends in a colon, in one type no larger than
    the title's, each right under the one before: the rest of the title. A byline (one in
    capitals parted into cells too: "CAITLIN SADOWSKI   JEFFREY VAN GOGH"), an affiliation,
    a dedication ("In memory of Jim Gray"), one of ``_NO_SUBTITLE``'s signs or a sentence
    ends them; an answer's paragraph under "… Answer:" is none."""
    run: list[Line] = []
    above = last
    while len(run) < _COLON_LINES:
        line = _right_under(above, title + run, first)
        if line is None:
            break
        text = line.text.strip()
        same_type = not run or abs(line.size - run[0].size) <= 0.12 * run[0].size
        if line.size > last.size * 0.95 or not same_type or not _subtitle_shaped(line, first) \
                or _names(text) is not None or _wrapped_names(text) or _address(text) or _prose(text) \
                or _NOT_CONTINUED.match(text) \
                or _NO_SUBTITLE.search(text):
            break
        run.append(line)
        above = line
    return run if sum(len(ln.text.split()) for ln in run) <= _COLON_WORDS else []


def _byline_begun(line: Line, first: PageText) -> bool:
    """A byline a scan misread begun on a line under a title, set like a subtitle: its first
    piece a name and the line under it, in its type, names ("Norbert Beckmann, Hans-Peter
    begel" / "Ralf Schneider, Bernhard Seeger"); "Cache Coherence, Revisited" is a subtitle."""
    text = line.text.strip()
    if "," not in text or _names(text.split(",")[0]) is None:
        return False
    height = max(line.bbox[3] - line.bbox[1], 1.0)
    under = [ln for ln in first.lines if 0 <= ln.bbox[1] - line.bbox[3] < height and abs(ln.size - line.size) <= 0.05 * line.size
             and ln.bbox[0] < line.bbox[2] and line.bbox[0] < ln.bbox[2]]
    return any(_names(ln.text) for ln in under)


def _rest_of_title(lines: list[Line], words: set[str], first: PageText, alike: bool = False) -> list[Line]:
    """The title's lines with those right under them that print only ``words``, the rest
    of the title the PDF's /Title gives ("AI-ENABLED" … "NETWORKS" / "Challenges,
    Opportunities," / "and Open Issues") or the file's name: no author is read from them.
    ``alike``: only lines in the title's type."""
    if not lines:
        return lines
    out = list(lines)
    for _ in range(3):
        last = max(out, key=lambda ln: ln.bbox[3])
        height = max(last.bbox[3] - last.bbox[1], 1.0)
        under = [ln for ln in first.lines if ln not in out and 0 <= ln.bbox[1] - last.bbox[3] + 0.2 * height < 1.5 * height
                 and ln.bbox[0] < last.bbox[2] and last.bbox[0] < ln.bbox[2]]
        if not under:
            break
        nxt = min(under, key=lambda ln: ln.bbox[1])
        own = _plain_words(nxt.text)
        if not own or not all(w in words for w in own) or all(w in _SMALL_WORDS for w in own) or alike and abs(nxt.size - last.size) > 0.12 * max(last.size, 1.0):
            break
        out.append(nxt)
    return out


def _wrapped_names(text: str) -> bool:
    """A list of names that goes on on the next line ("Hai Cheng†, Salvatore D’Oro†, …,
    Leonardo" / "Bonati†, …"): two names or more before its last comma."""
    head = text[:text.rfind(",")] if "," in text else ""
    return len(_names(head) or []) >= 2


def _long_enough(group: list[Line]) -> bool:
    """Two words or more (a logo is one), and no paragraph (a title is at most 30 words). A
    CJK label ("硕士学位论文", "计算机学报") or a line of Chinese names is no title however many
    letters it has."""
    text = _join_title(group) or ""
    words = _word_total(text)
    if _CJK.search(text) and (_CJK_LABEL.match("".join(text.split())) or _chinese_byline(text)):
        return False
    # (a title in CJK runs to more letters: its ceiling is the old one, 30 spaced words)
    return (words >= 2 or len(text) >= 12) and (words <= 30 or len(text.split()) <= 30 and _CJK.search(text) is not None)


# Chinese, Japanese and Korean letters (Chinese and Japanese words are unparted by spaces;
# Korean's are parted, but its letters are counted as theirs are, two a word, near enough)
_CJK = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff]")


def _mostly_cjk(text: str) -> bool:
    """Half the letters of ``text`` or more are CJK ones."""
    letters = sum(ch.isalpha() for ch in text)
    return bool(letters) and len(_CJK.findall(text)) >= 0.5 * letters


# A label in CJK set large on a cover or a journal's head, no title: "硕士学位论文", "计算机学报",
# "国家集训队论文", "人工知能学会論文誌"
_CJK_LABEL = re.compile(r"^[\u4e00-\u9fff\u3040-\u30ff]{0,12}(?:论文|論文|学报|學報|論文誌|学会誌|会誌|杂志|期刊)$")


def _word_total(text: str) -> int:
    """Words in ``text``, counting two CJK letters a word (a Chinese word is one to three
    characters, printed without spaces: "欧几里得算法的应用" is a title of four or five words,
    not one)."""
    cjk = len(_CJK.findall(text))
    return len(_CJK.sub(" ", text).split()) + (cjk + 1) // 2 if cjk else len(text.split())


def _word_spaced(line: Line, wide: bool = False) -> bool:
    """A line parted into cells at spaces no wider than two of its ems: word spaces set
    wide ("GENERALIZED   TRAVELLING   SALESMAN   PROBLEM", an old journal's title in
    capitals; a scan's text layer, "A VMM  Security  Kernel  for the VAX  Architecture"),
    not a table's or a grid's gaps, so a title's line may be one (unless its cells are
    names: a byline). A line set letter-spaced
    ("I NTE RNA TI O NAL CO M P UTER", a banner's) is none: its pieces of one or two
    letters are many."""
    text = line.text
    words = [w for w in text.split() if any(ch.isalpha() for ch in w)]
    if not words or sum(sum(ch.isalpha() for ch in w) <= 2 for w in words) >= 0.3 * len(words):
        return False
    # a byline: its cells names ("DENNIS M. RITCHIE   KEN THOMPSON"), or two of them beside an
    # "and", a "by" or an affiliation's number
    if _cell_names(line.cells) is not None or _names(text) is not None \
            or sum(len(c.split()) >= 2 and _names(c) is not None for c in line.cells) >= 2:
        return False
    if _VENUE.search(text):
        return False  # a journal's banner spaced into cells: "IEEE   TRANSACTIONS   ON   COMPUTERS"
    if len(line.boxes) != len(text):
        return False
    # each space measured from the letter before it to the letter after it (a row joined from
    # lines side by side, "PLANNER: A LANGUAGE FOR" beside "PROVING THEOREMS IN ROBOTS", gives
    # the space it adds the next line's box)
    # (either way: a line set right to left runs its boxes leftwards)
    gaps = [max(line.boxes[i + 1][0] - line.boxes[i - 1][2], line.boxes[i - 1][0] - line.boxes[i + 1][2])
            for i, ch in enumerate(text)
            if ch == " " and 0 < i < len(text) - 1 and text[i - 1] != " " and text[i + 1] != " "]
    # (up to 2.25 em only for a scan's line in display type, ``wide``: a row of a table or two
    # columns read across at 2-2.25 em is none)
    return bool(gaps) and max(gaps) < (2.25 if wide else 2) * max(line.size, 1.0)


# A journal's column over the title, matched with its spaces taken out (pdfium spaces small
# capitals apart: "FUN C T I ONA L P EA R L S"): JFP's pearls, CACM's viewpoint columns
# (only names no title opens with: "Global Computing", "Law and Technology" may; nor a name
# with a colon, "Viewpoints: A Framework for …")
_COLUMN_BANNER = re.compile(r"(?:functional|theoretical|educational)pearls?|insiderisks|legallyspeaking|"
                            r"theprofessionofit|kodevicious|historicalreflections|viewpoints|researchhighlights",
                            re.I)


def _column_banner(text: str) -> bool:
    """A journal's column named on a line of its own ("Functional Pearls", "Inside Risks"):
    no title's and no author's."""
    return bool(_COLUMN_BANNER.fullmatch(text.replace(" ", "")))


_DEPARTMENT_OF = re.compile(r"(?:department|school|institute|laborator(?:y|ies)|cent(?:er|re)|college|faculty|university)\s+(?:of|for)\b", re.I)


def _title_shaped(line: Line, banner: bool = False, wide: bool = False) -> bool:
    """``banner``: a line that opens like a banner ("Transactions, and …") may still be the
    title's, when the line over it is cut in mid-phrase (``_cut_short``)."""
    text = line.text.strip()
    letters = sum(ch.isalpha() for ch in text)
    return (letters >= 3 and (len(line.cells) <= 2 or _word_spaced(line, wide)) and (banner or not _NOT_TITLE.match(text))
            and max(len(w) for w in text.split()) <= 25  # a logo read by OCR: "COMPUTERLABORATORSCIENCE…"
            and not re.match(r"^\d+(\.\d+)*\.?\s+[A-Z]|^\d+(\.\d+)+\.?\s", text)
            and not _address(text)
            and not re.match(r"^[IVX]{1,4}\.\s+[A-Z]", text)  # a section's heading: "I. INTRODUCTION"
            and not re.search(r"\bcolumn$", text, re.I)  # "Database Theory Column": a column's banner
            # JFP's column over its title, set letter-spaced too: "FUN C T I ONA L P EA R L S"
            and not _column_banner(text)
            and not re.fullmatch(r"D\s+D\s+C|D\s+T\s+I\s+C|N\s+T\s+I\s+S", text)  # a clearinghouse's stamp spaced
            and not re.fullmatch(r"[a-z](?: [a-z]){3,}", text)  # a logo's one word in spaced small letters: DEC's "d i g i t a l"
            and letters >= 0.5 * len(text.replace(" ", ""))  # a formula set large: "dE=- '2i3n hC~RI~2."
            and not (_ORG_TITLE.search(text) and not _title_words(text))
            # a report series' banner, its department and its street side by side: "Department of
            # Computer Science   4400 University Drive MS#4A5"
            and not (len(line.cells) == 2 and _DEPARTMENT_OF.match(line.cells[0]) and not _title_words(line.cells[0])
                     and re.search(r"\d", line.cells[1]))
            and len(text) <= 200)


# a term's or an edition's date, "Spring Semester, 2011", "Winter Term, 1998": no byline's
_TERM = re.compile(r"\b(?:semester|term|quarter|session|edition|" + _SEASON + r")\b", re.I)
# publishers a book's cover dates beside their name ("Prentice Hall, 1985", "Addison Wesley, 1995")
_PUBLISHER_WORDS = {"hall", "wesley", "kaufmann", "wiley", "holland", "springer", "elsevier", "pearson",
                    "mcgraw", "reilly", "longman", "macmillan", "routledge", "sons"}


def _dated_byline(text: str) -> int | None:
    """The year of a byline dated in brackets, "By Vitalik Buterin (2014).", which no title
    line is (not "BY GRADIENT DESCENT", a title's last line)."""
    dated = re.match(r"^By\s+(.+?),?\s*\(" + _Y + r"\)\W*$", text.strip(), re.I)
    if dated and _names(dated.group(1)):
        return int(dated.group(2))
    first = re.match(r"^\(" + _Y + r"\)\s+(.+)$", text.strip())  # "(2012) Nick Bostrom"
    return int(first.group(1)) if first and _names(first.group(2)) else None


def _name_dated(text: str) -> tuple[list[str], int] | None:
    """A byline of one name dated after a comma, "Bryan Edds, 2014": the name and the year;
    not a term's date ("Spring Semester, 2011"), a place's ("Porto Alegre, 2014" is read as
    one only where no name is printed), a publisher's ("Prentice Hall, 1985") or a heading's
    ("Course Notes, 2014")."""
    after = re.fullmatch(r"([^\W\d_][^,;&\d]*[^\W\d_]),\s*" + _Y + r"\.?", text.strip())
    if after is None or _TERM.search(text) or _place(after.group(1)) or _org(after.group(1)) \
            or _PUBLISHER.search(text) or _HEADING_WORDS.search(after.group(1).upper()) \
            or any(w.lower() in _PUBLISHER_WORDS for w in after.group(1).split()):
        return None
    names = _names(after.group(1))
    return (names, int(after.group(2))) if names and len(names) <= 3 else None


def _dated_byline_under(first: PageText, title_lines: list[Line]) -> tuple[list[str], int] | None:
    """The byline dated after a comma among the first three lines under the title, when no
    other way read a name: "Bryan Edds, 2014" under "Diseases in Code", and its year, which
    dates the page only when nothing else does (an epigraph's "Edsger W. Dijkstra, 1975", or
    "Porto Alegre, 2014" over a byline, is read by no other rule)."""
    bottom = max(ln.bbox[3] for ln in title_lines)
    under = sorted((ln for ln in first.lines if ln not in title_lines and ln.bbox[1] >= bottom - 1),
                   key=lambda ln: ln.bbox[1])[:3]
    return next((dated for ln in under if (dated := _name_dated(ln.text)) is not None), None)



def _stamp(text: str) -> bool:
    """A venue's, a version's or a group's note over a title in its type ("Appears in Fast
    Software Encryption (FSE 2004), …", "O-RAN Work Group 11 (…)", "EXTENDED ABSTRACT"),
    which no title line above it is; a title's first line that merely opens like one
    ("Version Spaces: A …", "Report 9: Impact of …", "Version 7 UNIX: Design and", "Volume
    Rendering") is none."""
    text = text.strip()
    if _column_banner(text):
        return True
    return bool(_NOT_TITLE.match(text)) and bool(
        _ANY_YEAR.search(text) or _VENUE_NOTE.match(text) or re.match(_VERSION_NOTE, text, re.I)
        or re.search(r"\bwork(?:ing)?\s+group\b|\b(?:no\.?|number|nr\.)\s*[\w.-]*\d", text, re.I)
        or _BANNER_LINE.fullmatch(text) or re.match(_REPORT_ID, text))


#: a banner that is the whole line: "EXTENDED ABSTRACT", "Technical Report", "Preprint",
#: "Draft v2" (not "Volume Rendering", "Draft Genome Sequence", "Abstract Interpretation:")
_BANNER_LINE = re.compile(r"(?:extended abstract|draft(?: paper)?|technical (?:report|note)|preprint(?: version)?|"
                          r"working paper|research note|position paper|white\s?paper|invited (?:paper|talk)|"
                          r"(?:journal|conference|workshop) paper|lecture notes|report|communications|"
                          # a short line with a number: "Draft v2", "Version 2.1", "Vol. 12"
                          r"\S+(?:\s+\S+)?\s+v?\d+(?:\.\d+)*)\W*", re.I)


def _address(text: str) -> bool:
    """An e-mail or web address in a line a title would take; a project's name with an "@"
    ("SETI@home: An Experiment in Public-Resource Computing") is none."""
    return bool(_EMAIL.search(_AT_NAME.sub(" ", text)))


def _title_words(text: str) -> bool:
    """A colon or a long line reads as a title even with a word like "Systems" in it."""
    return ":" in text or len(text.split()) >= 7


#: A title line ending on one of these goes on below ("An Interview with" / "J. C. R. LICKLIDER",
#: set double-spaced as a typescript's cover sets every line)
_DANGLING = re.compile(r"\s(?:with|of|for|and|the|an?|to|in|on|from|between|about|into|via|towards?)$", re.I)
#: and one of these may take a person's name: a name under any other is the byline ("Dietary
#: Intake of Vitamin A" / "Jane Doe, John Smith" set alike)
_PERSON_OBJECT = re.compile(r"\s(?:with|of|for|to|about|from|between)$", re.I)


# A thesis cover's words that are no title's: "A DISSERTATION", "MASTER OF SCIENCE", "IN PARTIAL FULFILLMENT"
_DEGREE_WORDS = re.compile(r"\b(?:thesis|dissertation|degree|doctor|master'?s?|bachelor|fulfil+ment|submitted|"
                           r"philosophy|presented|candidate)\b", re.I)


def _grow(start: Line, lines: list[Line], names_end: bool = False) -> list[Line]:
    """``start`` and the lines right above and below it in the same type (found by
    position: on a two-column page the other column's lines sit between them in order).
    ``names_end``: a name under it ends the title whatever the space between (a typescript
    sets the title and its authors alike)."""
    group = [start]
    continued: set[int] = set()  # lines a change of type brought in

    def alike(a: Line, b: Line, down: bool = False) -> bool:
        height = max(a.bbox[3] - a.bbox[1], 1.0)
        gap = b.bbox[1] - a.bbox[3]
        overlap = min(a.bbox[2], b.bbox[2]) - max(a.bbox[0], b.bbox[0])
        end = a.text.strip()
        if down and _DANGLING.search(end) and (_names(b.text) is None or _PERSON_OBJECT.search(end)) \
                and abs(a.size - b.size) <= 0.12 * max(a.size, 1.0) and -0.5 * height <= gap <= 4 * height \
                and overlap > 0 and _title_shaped(b) and sum(ch.isalpha() for ch in b.text) >= 3 \
                and not _address(b.text):
            # a title line cannot end on "with": the line under it is its end ("An Interview
            # with" / "J. C. R. LICKLIDER"); only downwards ("To appear in" over a title is no part of it)
            return True
        if id(a if down else b) not in continued and _continued(a, b, height, gap, overlap) and not any(
                ln is not a and ln is not b and a.bbox[3] - 1 <= ln.bbox[1] and ln.bbox[3] <= b.bbox[1] + 1
                and min(ln.bbox[2], a.bbox[2]) - max(ln.bbox[0], a.bbox[0]) > 0 for ln in lines):
            continued.add(id(b) if down else id(a))  # the next line of the sentence, nothing between:
            return True  # lines of its own type may follow it, another change of type may not
        # (a thesis cover double-spaces its title in bold capitals: "EFFICIENCY IN THE COLUMBIA
        # DATABASE" / "QUERY OPTIMIZER"): downwards, a short line of two to four words that is
        # no affiliation, place, degree or heading ("A DISSERTATION", "INTRODUCTION"; "DATABASE
        # SYSTEMS" is a title's)
        spaced = 2.0 if down and a.bold and b.bold and a.text.isupper() and b.text.isupper() \
            and 2 <= len(b.text.split()) <= 4 and not _NOT_TITLE.match(b.text.strip()) \
            and not (_ORG_TITLE.search(b.text) or _place(b.text) or _DEGREE_WORDS.search(b.text)) else 1.5
        return abs(a.size - b.size) <= 0.12 * max(a.size, 1.0) and -0.5 * height <= gap <= spaced * height \
            and overlap > 0 and (_title_shaped(b, banner=_cut_short(a) or _aside(b) or _report_end(a, b) or _summary_end(a, b))
                                 or _link_word(b)) \
            and not _address(b.text) \
            and not _dated_byline(b.text) \
            and not ((gap > 0.5 * height or names_end and not (a.text.isupper() and b.text.isupper())
                      and not a.text.rstrip().endswith(":"))  # ("COMMON LISP:" / "A Gentle Introduction")
                     and _names(b.text) is not None  # the author line under it
                     # unless it ends the title's own list ("… Second-Preimage Resistance," /
                     # "and Collision Resistance"): a byline never opens on a small "and"
                     and not (a.text.rstrip().endswith(",") and b.text.lstrip().startswith("and "))
                     # unless the names are printed under it in a smaller type: a title's
                     # last line spaced wide ("… of Molecular" / "Prediction Models")
                     and not (abs(a.size - b.size) <= 0.03 * max(a.size, 1.0) and _names_under(b, lines)))

    while len(group) < 6:  # a magazine's display title: "If You Have" / … / "Enough" in six lines
        below = [ln for ln in lines if ln not in group and alike(group[-1], ln, down=True)]
        if not below:
            break
        group.append(min(below, key=lambda ln: ln.bbox[1]))
    while len(group) < 6:
        above = [ln for ln in lines if ln not in group and alike(ln, group[0])
                 and not _stamp(ln.text)  # a banner over it: "O-RAN Work Group 11 (…)"
                 and not (_names(ln.text) is not None and not _title_words(ln.text) and not ln.text.isupper()
                          and group[0].text.isupper())]  # "Per Martin-Löf" over "ON THE MEANINGS …"
        if not above:
            break
        group.insert(0, max(above, key=lambda ln: ln.bbox[1]))
    return group


# The words a title's line set smaller than the next goes on from ("Case Studies in" over
# "SECURITY AND RESOURCE MANAGEMENT") or the next line set smaller opens with ("for Mobile Object
# Systems"); "by" opens a byline
_CONTINUING = re.compile(r"^(?:for|of|in|on|and|or|with|to|from|via|using|as|at|into|through|over|under|without|"
                         r"within|towards?|between|beyond|across|against|among|versus|vs\.)\s", re.I)


# A smaller line that names the work's circumstances, not its subject: "on behalf of the CDF
# Collaboration", "Dedicated to the", "for the course CS 244", "from the Programming
# Methodology Group"
_NOT_CONTINUED = re.compile(r"^(?:on behalf of|dedicated to|in memory of|for the (?:course|class|degree|workshop|seminar)|"
                            r"(?:to appear|presented|submitted|prepared|written|edited) (?:in|at|to|for|by)\b)", re.I)
# "from the Programming Methodology Group" under a whole title is where it comes from ("Notes" /
# "from the Systems Lab" is a title's end)
_FROM_A_GROUP = re.compile(r"^from the (?:\w+\s+){0,4}(?:group|laborator(?:y|ies)|lab|project|team|cent(?:er|re))\b", re.I)
# A thesis cover's line about the degree, not the title's words ("The Philosophy of", "A Master Theorem")
_DEGREE_PHRASE = re.compile(r"\b(?:thesis|dissertation|degree of|fulfil+ment|requirements for|submitted (?:to|in|for))\b", re.I)


def _continued(a: Line, b: Line, height: float, gap: float, overlap: float) -> bool:
    """A title whose lines change type, one phrase set large in the middle ("Case Studies in"
    / "Security and Resource Management" / "for Mobile Object Systems"): the smaller line
    goes on with the larger one when the sentence runs over the break, the upper one ending
    on a preposition or "and", the lower one opening with one in small letters; close under
    each other, centred alike, the smaller at least 0.6 of the larger, neither line names or an
    address."""
    small, large = sorted((a, b), key=lambda ln: ln.size)
    if not 0.6 * large.size <= small.size < 0.88 * large.size or not -0.5 * height <= gap <= 1.2 * height or overlap <= 0:
        return False
    if abs((a.bbox[0] + a.bbox[2]) / 2 - (b.bbox[0] + b.bbox[2]) / 2) > 0.1 * max(large.bbox[2] - large.bbox[0], 1.0):
        return False
    runs_on = (_DANGLING.search(a.text.strip()) is not None and a is small) \
        or (_CONTINUING.match(b.text.strip()) is not None and b.text.strip()[:1].islower() and b is small)
    text = small.text.strip()
    return runs_on and all(_title_shaped(ln) and _names(ln.text) is None and not _address(ln.text) for ln in (a, b)) \
        and not _ORG_TITLE.search(text) and not _DEGREE_PHRASE.search(text) and not _NOT_CONTINUED.match(text) \
        and not (_FROM_A_GROUP.match(text) and len(large.text.split()) >= 3)


def _byline_under(line: Line, lines: list[Line]) -> bool:
    """A line of names right under ``line`` (within two of its heights): a typescript's long
    title line over its byline ("The Divide-and-Conquer Paradigm as a Basis for …" / "Tom
    Axford")."""
    height = max(line.bbox[3] - line.bbox[1], 1.0)
    under = [ln for ln in lines if 0 < ln.bbox[1] - line.bbox[3] < 2 * height]
    return bool(under) and _line_names(min(under, key=lambda ln: ln.bbox[1])) is not None


def _link_word(line: Line) -> bool:
    """A line of one small word set between two lines of a title ("Efficient Solutions" /
    "to" / "the Replicated Log and Dictionary Problems", "Performance Improvements on Tor" /
    "or," / "Why Tor is slow …"); "by" opens the byline."""
    text = line.text.strip().lower().rstrip(",")  # "or," between a title and its other title
    return text in _SMALL_WORDS and text != "by"


# A version's tag in brackets under a title: "(Extended Abstract)", "(Preliminary Version)"
_VERSION_TAG = re.compile(r"\b(?:extended|abstract|preliminary|version|draft|revised|summary|invited|appear|"
                          r"full|short|paper|report|note)\b", re.I)


def _aside(line: Line) -> bool:
    """A title's aside in brackets on a line of its own, "(It's Time for a Complete
    Rewrite)", or of one word that only a title carries — an acronym, "(SQL)", or a kind of
    paper, "(Tutorial)", "(Survey)"; a version's or a copy's tag ("(Extended Abstract)",
    "(Preprint)", "(Manuscript)", "(Under Review)") and a number ("(1)", "(v2)") are none."""
    text = line.text.strip()
    word = re.fullmatch(r"\(([^\W\d_]+)\)", text)
    if word is not None:
        one = word.group(1)
        return bool(one.isupper() and 2 <= len(one) <= 6 or re.fullmatch(r"tutorial|survey|overview|revisited", one, re.I))
    return text.startswith("(") and text.endswith(")") and not _VERSION_TAG.search(text) and len(text.split()) >= 4


def _summary_end(a: Line, b: Line) -> bool:
    """A title that wraps before its last word "Summary" ("… Deployment: An Executive" / "Summary"),
    where "Summary" alone is otherwise a heading."""
    return bool(re.fullmatch(r"(?:summary|synopsis)\W*", b.text.strip(), re.I)) and bool(
        re.search(r"\b(?:executive|brief|short|an?|final|technical|project|annual)$", a.text.strip(), re.I))


def _report_end(a: Line, b: Line) -> bool:
    """A report's title that wraps before its last word: "… DECEMBER 1993 PROGRESS" / "REPORT"."""
    return bool(re.fullmatch(r"reports?\.?", b.text.strip(), re.I)) and bool(
        re.search(r"\b(?:annual|progress|status|final|interim|quarterly|activity|technical|research|project)$", a.text.strip(), re.I))


def _cut_short(line: Line) -> bool:
    """A line of a title that ends in mid-phrase ("… for Streaming," / "Transactions, and
    Interactive Analytics"): the next line goes on with it."""
    words = line.text.split()
    return bool(words) and (words[-1].endswith((",", ":")) or words[-1].lower() in _SMALL_WORDS)


def _names_under(line: Line, lines: list[Line]) -> bool:
    """Names printed under ``line``, within four of its heights, in a type smaller than its
    own (a line of names, or one wrapped over two lines)."""
    height = max(line.bbox[3] - line.bbox[1], 1.0)
    under = sorted((ln for ln in lines if 0 < ln.bbox[1] - line.bbox[3] < 4 * height and ln.size < 0.9 * line.size),
                   key=lambda ln: ln.bbox[1])[:4]
    return any(_line_names(ln) or i + 1 < len(under) and _joins(ln, under[i + 1], 1.5)
               and _names(f"{ln.text.strip()} {under[i + 1].text.strip()}") for i, ln in enumerate(under))


_REPORT_NUMBER = re.compile(r"^(?:memo|report|technical report|tech\. report|note|working paper)\s+[\w.-]*\d[\w.-]*"
                            r"\s*(?:--|—|–|:)\s*", re.I)


def _superscript_bracket(text: str) -> str:
    """A footnote's letter written with its bracket, "PiERCE^(a))", is the superscript "a)":
    the bracket after it closes nothing ("(Extended Abstract^(*))" keeps its own)."""
    out, at = [], 0
    for m in re.finditer(r"\^\([^)]*\)\)", text):
        opened = text[:m.start()].count("(") - text[:m.start()].count(")")
        out.append(text[at:m.end() - 1] if opened <= 0 else text[at:m.end()])
        at = m.end()
    return "".join(out) + text[at:]


def _join_title(lines: list[Line]) -> str | None:
    if not lines:
        return None
    # "Memo 19--LISP II Garbage Collector": a report's number before the title, and the
    # project's name over it in the same typewriter type, are no part of it
    numbered = [i for i, ln in enumerate(lines) if (m := _REPORT_NUMBER.match(ln.text.strip()))
                and (i == 0 or "--" in m.group() and not _cut_short(lines[i - 1]))]
    lines = lines[numbered[-1]:] if numbered else lines
    # "Equal Rights for Functional Objects1": a footnote's number glued to a title line's end
    # ("… Single-User Machine1,2": two of them)
    pieces = [re.sub(r"(?:(?<=[a-z]{3})|(?<=[a-z!?.][’'\"”]))[1-9](?:,[1-9])*(?=[\s,.;:]|$)", "",
                     _TITLE_MARKS.sub("", _superscript_bracket(ln.text)).strip().lstrip("• "))  # a speck of the scan in the margin
              for ln in lines]
    # (a Chinese or Japanese title wrapped mid-word, "…信息学竞" / "赛分析…": its lines join with
    # no space, as its words do)
    text = "".join(piece if k == 0 else ("" if _CJK.match(piece[:1]) and _CJK.match(pieces[k - 1][-1:]) else " ") + piece
                   for k, piece in enumerate(pieces))
    text = _REPORT_NUMBER.sub("", text.strip())
    # "Conflict-free Replicated Data Types ı": a font's footnote mark read as a dotless i, alone
    text = re.sub(r"\s+ı$", "", text)
    text = re.sub(r"(\w)- (\w)", r"\1-\2", " ".join(text.split())).strip(" .,;:∗*")
    quoted = re.fullmatch(r"[“\"]([^“”\"]+)[”\"]", text)
    text = quoted.group(1).strip() if quoted else text  # a title printed in quotes: “A 677 YEAR …”
    half = text[:len(text) // 2].strip()
    if len(half) >= 8 and text == f"{half} {half}":
        text = half  # a title overprinted to look bold, read twice from the text layer
    if text.isupper() and len(text) > 12:
        text = _title_case(text)
    return text or None


def _dehyphenated(title: str | None, lines: list[Line], first: PageText | None) -> str | None:
    """A word the title's lines break with a hyphen ("… FOR READING COMPRE-" / "HENSION")
    is one word when the page prints it whole elsewhere ("reading comprehension" in the
    abstract); a compound ("Self-" / "Attention") stays as printed."""
    if not title or first is None:
        return title
    printed = {w.lower() for ln in first.lines if ln not in lines for w in re.findall(r"[^\W\d_]+", ln.text)}
    for upper, lower in zip(lines, lines[1:]):
        head = re.search(r"([^\W\d_]+)-$", upper.text.strip())
        tail = re.match(r"([^\W\d_]+)", lower.text.strip())
        if not (head and tail):
            continue
        broken = rf"\b({re.escape(head.group(1))})-({re.escape(tail.group(1))})\b"
        # (a capital after the break is a real hyphen's: "Non-" / "Blocking", "Pre-" / "Training")
        if (tail.group(1)[0].islower() or upper.text.isupper() and lower.text.isupper()) \
                and (head.group(1) + tail.group(1)).lower() in printed and len(re.findall(broken, title, re.I)) == 1:
            title = re.sub(broken, r"\1\2", title, flags=re.I)
    return title


def _unmarked(title: str | None, first: PageText | None) -> str | None:
    """A title without the footnote's number a scan's text layer reads as a word of its own
    ("The LOCUS Distributed Operating System I", its footnote "1 This research was
    supported by …" at the foot of the page); "Part I", "Volume 1" keep theirs."""
    end = re.search(r"(?<=[^\W\d_]{3}) [Il1]$", title or "")
    if title is None or first is None or end is None \
            or re.search(r"\b(?:part|vol(?:ume)?|book|chapter|section|no|number|phase|level|type|class|stage|step|"
                         r"war|edition|release|series|report|paper|note|memo|appendix|mark|lecture|task|set|"
                         r"version|homework|assignment|exercise|lab|unit|module|lesson|week|session|episode|"
                         r"issue|problem)\.?$", title[:end.start()], re.I):
        return title
    body = _body_size(first.lines)
    if any(re.match(r"[1I]\s+[A-Z][a-z]+(?:\s+\S+){3}", ln.text.strip()) and ln.bbox[1] > 0.5 * first.height
           and round(ln.size) <= body and not _NOT_TITLE.match(ln.text.strip()) for ln in first.lines):
        return title[:end.start()]  # a footnote: its number, then a sentence in the body's type or smaller
    return title


def _cjk_unmarked(title: str | None, lines: list[Line]) -> str | None:
    """A Chinese title without its footnote's number, set small and raised between two of
    its letters ("线段跳表——跳表¹的一个拓展", read "跳表1的")."""
    if title is None:
        return None
    for line in lines:
        text = line.text
        if len(line.boxes) != len(text) or not _CJK.search(text):
            continue
        heights = [b[3] - b[1] for ch, b in zip(text, line.boxes) if _CJK.match(ch)]
        if not heights:
            continue
        full, foot = statistics.median_low(heights), max(b[3] for ch, b in zip(text, line.boxes) if _CJK.match(ch))
        raised = [ch.isdigit() and b[3] - b[1] < 0.75 * full and foot - b[3] > 0.2 * full
                  for ch, b in zip(text, line.boxes)]
        # (a run of them, "跳表¹²的", after a letter and before one or the line's end)
        marks: set[int] = set()
        k = 0
        while k < len(text):
            end = k
            while end < len(text) and raised[end]:
                end += 1
            if end > k and k > 0 and _CJK.match(text[k - 1]) and (end == len(text) or _CJK.match(text[end])):
                marks.update(range(k, end))
            k = max(end, k + 1)
        kept = "".join(ch for k, ch in enumerate(text) if k not in marks)
        if kept != text and text in title:
            title = title.replace(text, kept)
    return title


def _untagged(title: str | None) -> str | None:
    """A title without the copy's state in brackets after it: "Open Libernet [DRAFT]"."""
    if title is None:
        return None
    return re.sub(r"\s*[\[(](?:(?:preliminary|working|first|rough)\s+)?(?:draft|preprint)[\])]$", "", title, flags=re.I) or title


# Springer's /Title names the book series and volume before the paper's title: "LNCS 7813 - …"
_SERIES = re.compile(r"^(?:LNCS|LNAI|LNBI|LNBIP|LNICST|CCIS|AISC|IFIP AICT)\s+\d+\s*[-–—:]\s*")


def _agreeing_title(info: dict[str, str], first: PageText | None, page_title: str | None) -> str | None:
    """The PDF's /Title, when the first page prints it (the page's own reading may have
    lost a line break or a dash the field keeps)."""
    title = _SERIES.sub("", " ".join((info.get("Title") or "").split()))
    if len(title) < 4 or _JUNK_TITLE.search(title) or first is None:
        return None
    page = _key(" ".join(ln.text for ln in first.lines))
    if _key(title) and _key(title) in page and (page_title is None or _key(page_title) in _key(title)):
        return title
    # A scan's text layer misreads a word or two ("X3" for "2Q") and splits lines: the
    # field still agrees when nearly all its words are printed and the page's own title
    # is mostly its words.
    words = [_key(w) for w in title.split() if _key(w)]
    # (printed above the page's lower part: "History" in "The Center for the History of
    # Information Processing" at its foot does not print "Oral History Interview with Keith Uncapher")
    printed = {_key(w) for ln in first.lines[:60] if ln.bbox[1] < 0.6 * first.height for w in ln.text.split()}
    own = [_key(w) for w in (page_title or "").split() if _key(w)]
    if len(words) >= 4 and sum(w in printed for w in words) >= 0.8 * len(words) \
            and own and sum(w in words for w in own) >= 0.6 * len(own):
        return title
    return None


# --- authors ----------------------------------------------------------------------------

# a degree opening a line: the last name's of the line over it
_OPENING_DEGREE = re.compile(r"^(?:PhD|DPhil|MD|MPH|MBA|Ph\.\s?D\.)\s*,\s*")


def _page_authors(first: PageText | None, title: list[Line], wide: bool = False) -> list[str]:
    """Names printed under the title, up to the abstract or the body text.

    Read by position, not reading order: authors set side by side in two or three
    columns come before a two-column abstract in reading order only in part. A line
    wrapped inside a list of names ("…, Avinash" / "Lakshman, Alex …") is read with the
    next one. The lines read are those under the title's width (the other column of a
    page is not its byline); ``wide``: those set flush left at the text's margin, close
    under the title (ACM Queue sets its byline so under a title set in from the margin:
    "Idempotence Is Not a" / "Medical Condition" over "Pat Helland"), read when no other
    way finds a name."""
    if first is None:
        return []
    if not title:
        return _byline_alone(first)  # the title garbled past reading ("A ~ Ff~ pAR~.TJm.")
    end = max(title, key=lambda ln: ln.bbox[3])
    top = end.bbox[3] - 0.3 * (end.bbox[3] - end.bbox[1])  # a typescript's lines overlap a little
    left = min(ln.bbox[0] for ln in title) - 60
    right = max(ln.bbox[2] for ln in title) + 60
    under = [ln for ln in first.lines if ln.bbox[1] >= top - 1 and ln not in title]
    if wide:
        # (the margin of the lines close under the title, set across: no footer's or
        # stamp's further left)
        height = end.bbox[3] - end.bbox[1]
        under = [ln for ln in under if ln.bbox[1] - end.bbox[3] < 4 * height
                 and ln.bbox[2] - ln.bbox[0] > ln.bbox[3] - ln.bbox[1]]
        margin = min((ln.bbox[0] for ln in under), default=0.0)
        under = [ln for ln in under if ln.bbox[0] <= margin + 3]
    below = _rows(_lists_kept_whole(_in_rows([ln for ln in under if wide or ln.bbox[2] > left and ln.bbox[0] < right])))
    names: list[str] = []
    spots: dict[str, tuple[float, float]] = {}  # a name set in a grid: its cell's middle and top
    alone: dict[str, Box] = {}  # a name on a line of its own: the line's box
    width = max(first.width, 1.0)
    style: Line | None = None
    last: Line | None = None  # the last line names were read from
    last_found: list[str] = []  # and the names read from it
    skip = 0
    body = _body_size(first.lines)
    deck: Line | None = None  # the last line of a magazine's deck read past
    for i, line in enumerate(below[:40]):
        if skip:
            skip -= 1
            continue
        text = line.text.strip()
        if _STOP_AUTHORS.match(text) and not _marks_over(line, below[max(i - 1, 0):i] + below[i + 1:i + 2]) \
                and not (names and _next_author_block(below, i)):
            break  # (not an affiliation after its number, "1 School of Psychology, University of …",
            # with the next author's name over the next number's)
        if names and i and style is not None and line.bbox[1] - below[i - 1].bbox[3] > max(5 * max(line.bbox[3] - line.bbox[1], 1.0),
                                                                                        0.15 * first.height) \
                and abs(line.size - style.size) > 0.1 * style.size:
            # a block far down the page in another type after the byline: a report cover's
            # laboratory ("Multiple Autonomous" / "Robotic Systems Labroratory"); a slide's
            # rows of names, spaced wide in one type, go on
            break
        if _ROLES.match(text):
            if names:
                break
            continue  # "Supervisor: John Smith" over the byline ("by" / "Jane Doe"): the heading's line alone
        if deck is not None and not names:
            if _joins(deck, line):
                deck = line
                continue  # the deck's next line, however short ("software.")
            if line.size < 1.1 * body or (_line_names(line) or _apart_names(line)) is None:
                break  # a deck leads only to a byline set over the body's type, not into its headings
        if (len(re.findall(r"\w+", text)) > 14 or _CJK.search(text) and _word_total(text) > 14
                and re.search(r"[。，,；;]", text)) \
                and _line_names(line) is None and not _wrapped_names(text) \
                and not all("@" in w for w in text.split()):  # (a grid's row of addresses is no prose)
            if not names and line.bold and line.size >= 1.25 * body:
                deck = line
                continue  # a magazine's deck under the title, prose in bold over the byline (Thompson)
            break  # the body: a line of prose (a long line of names is read on)
        if names and last is not None and _prose(text) and _line_names(line) is None \
                and min(line.bbox[2], last.bbox[2]) - max(line.bbox[0], last.bbox[0]) > 0 \
                and not (style is not None and line.size < 0.9 * style.size and i + 1 < len(below)
                         and _row_of_names(below[i + 1]) and abs(below[i + 1].size - style.size) <= 0.05 * style.size):
            # an abstract set in a narrow column under the byline ("SCALE INTEGRATION" under
            # it is a heading); prose beside the names (a sidebar of them), or a note in smaller
            # type between two rows of them, is read past
            break
        if not any(ch.isalpha() for ch in text):
            continue  # a row of footnote marks set over the names ("∗", "† ‡"): no line of names
        if names and style is not None and line.size < 0.95 * style.size and re.search(r"\b(?:Prof\.|Professor)\s", text):
            continue  # "Prof. H. Gall, Prof. M. Glinz, …" under a seminar's line, in its type: its teachers
        found = _line_names(line) or _apart_names(line)
        if found is None and last_found and last is not None and last.text.rstrip().endswith(",") \
                and _OPENING_DEGREE.match(text):
            # "…, Kenton T. Unruh," / "PhD, Wanda Pratt, PhD": the list goes on past its last
            # name's degree
            found = _names(_OPENING_DEGREE.sub("", text, count=1))
        block = _byline_paragraph(below, i) if ";" in text else []
        if len(block) > 1:
            # "Name, Affiliation; Name and Name, Affiliation; …" run on over lines, a group
            # cut at a line's end ("… Udi Wieder and Scott" / "Fritchie, VMware …"): the
            # paragraph read as one
            whole = _names(" ".join(ln.text.strip() for ln in block))
            if whole and len(whole) > len(found or []):
                found, skip = whole, len(block) - 1
        mailed = bool(_EMAIL.search(text) and last is not None and _EMAIL.search(last.text))
        if found is None and (style is None or abs(line.size - style.size) <= 0.05 * max(style.size, 1.0) or mailed) \
                and not any(abs(x - _middle(line, line.cells[0])) < 0.1 * width for x, _ in spots.values()):
            # names beside their affiliations, in the names' type and under no name of a grid
            # ("SUNY Stony Brook   Rutgers University" under "Michael A. Bender   Martín
            # Farach-Colton" is the grid's row of affiliations)
            found = _names_beside_affiliations(line.cells)
        if found and text.isupper() and any(abs(o.bbox[1] - line.bbox[1]) < 2 and o is not line and _org(o.text)
                                            for o in below):
            found = None  # "DEVCOM ARL" in a grid's row of affiliations: capitals of an agency, no name
        # a list of names wrapped over lines, a name cut at the end of one ("…, Scott" /
        # "Shenker, Howard Sturgis, …, Doug" / "Terry, and Don Woods"): read on with the
        # lines under it in the same type, up to three
        joined, j = text, i
        # (an address's line opens no list: "West Lafayette, IN 47907–1398" over the e-mails)
        while found is None and j + 1 < len(below) and j - i < 3 and not _place(text) and \
                (joined.endswith((",", "and")) or _joins(below[j], below[j + 1], 1.5)):
            j += 1
            joined = joined + " " + below[j].text.strip()
            found = _names(joined)
            skip = j - i if found is not None else 0
        if found is None and last is not None and last_found and not last.text.rstrip().endswith((",", "and")) \
                and _joins(last, line, 1.5) and re.match(r"^[^\W\d_][\w'’-]*,", text) \
                and not (_org(text) or _place(text) or _EMAIL.search(text)):
            # a list wrapped inside a name, the line before ending in its given names ("…, Ben
            # Gelb, Tara Vazir" / "Ghaemmaghami, Rajendra Gottipati, …"): read again from that
            # line, with the lines under it in the same type, up to three
            joined, j = last.text.strip(), i - 1
            while found is None and j + 1 < len(below) and j - i < 3:
                j += 1
                joined = joined + " " + below[j].text.strip()
                found = _names(joined)
            if found is not None:
                names[:] = [n for n in names if n not in last_found]
                skip = j - i
        if found is None:
            if style is not None and last is not None:
                # a block of the grid holding two people ("Kyle Lo" / "Doug Downey" over one
                # affiliation): the second name sits in the affiliations' row, set in the
                # names' type; it follows the name over it
                for cell, middle in _cells_in_type(line, _type_height(last)):
                    extra = _names(cell)
                    if extra and len(extra) == 1 and extra[0] not in names:
                        over = [n for n, (x, y) in spots.items() if y < line.bbox[1] and abs(x - middle) < 0.1 * width]
                        at = max((names.index(n) for n in over), default=len(names) - 1) + 1
                        names.insert(at, extra[0])
                        spots[extra[0]] = (middle, line.bbox[1])
            continue
        if style is not None and abs(line.size - style.size) > 0.25 * max(style.size, 1.0) \
                and not (last is not None and _under(last, line)) \
                and not mailed:
            # (JMLR's "Geoffrey Hinton   HINTON@CS.TORONTO.EDU": the address in smaller type
            # sets the line's size, as on the first author's line over it)
            skip = 0  # the lines read with it are read on their own
            continue  # an affiliation or a footnote set in another size
        style = style or line
        last = line
        last_found = [n for n in found if n not in names]
        names.extend(last_found)
        if len(line.cells) == len(found) > 1:
            spots.update((n, (_middle(line, c), line.bbox[1])) for n, c in zip(found, line.cells))
        if len(last_found) == 1 and not skip:
            alone[last_found[0]] = line.bbox
    names = _stacked_blocks(names, alone, first)
    side = _sidebar_names(below, width)
    names = side if len(side) > len(names) else _by_stacks(names, alone, below, width)
    domains = _domains(below)
    kept = [n for n in names if re.sub(r"[^a-z]", "", n.lower()) not in domains and not _domains_company(n, domains)]
    return _russian_byline(kept if kept else names)[:100]


def _russian_byline(names: list[str]) -> list[str]:
    """A Russian byline's names have initials ("А. В. Григорьева"): beside them, a Cyrillic
    "name" without one that holds a word in capitals is an affiliation's or a heading's read
    as a name ("ТиМПИ СПИИРАН", "Технология АОП"); one given first ("Иван Петров") stays."""
    cyrillic = [bool(re.search(r"[А-ЯЁа-яёІЇЄҐіїєґЎў]", n)) for n in names]
    initials = [c and bool(re.search(r"(?:^|\s)[А-ЯЁІЇЄҐЎ]\.", n)) for n, c in zip(names, cyrillic)]
    if not any(initials):
        return names
    return [n for n, c, i in zip(names, cyrillic, initials)
            if i or not c or not re.search(r"[А-ЯЁ][а-яё]*[А-ЯЁ]", n)]


def _next_author_block(below: list[Line], at: int) -> bool:
    """Whether ``below[at]`` is the first author's numbered affiliation in a byline set name
    by name ("ZANNA CLAY" / "1 School of Psychology, University of Birmingham," / …
    "JAHMAIRA ARCHBOLD, KLAUS ZUBERBUHLER" / "2 Institute of Biology, …"): the line over
    the affiliation numbered 2 is a line of names. Affiliations listed one number under the
    other after all the names (OGB's "1 Department …" / "2 Department …" / … "Steering
    Committee") end the byline."""
    text = below[at].text.strip()
    if not (_NUMBERED_AFFILIATION.match(text) and text.startswith("1") and _org(text)):
        return False
    second = next((k for k in range(at + 1, min(at + 12, len(below)))
                   if re.match(r"2\s+[A-Z]", below[k].text.strip())), None)
    if second is None or second - 1 <= at:
        return False
    over, aff = below[second - 1], below[at]
    # (the names' own type: bigger or bolder than the affiliation's, or capitals as over "1";
    # not the affiliation's wrapped town in its type, "Kuala Lumpur", "Cape Town")
    shaped = over.size > 1.05 * aff.size or over.bold and not aff.bold \
        or over.text.strip().isupper() and at > 0 and below[at - 1].text.strip().isupper() \
        or over.bbox[1] - below[second - 2].bbox[3] > 1.5 * max(below[at + 1].bbox[1] - aff.bbox[3], 1.0)
    return shaped and _line_names(over) is not None and not _org(over.text)


def _row_of_names(line: Line) -> bool:
    """A line of names and little else (at most four words a name): "Carol White   Dan Brown",
    not "Advice Taker, a computer program that is"."""
    names = _line_names(line)
    return bool(names) and len(line.text.split()) <= 4 * len(names or [])


_FUNCTION_WORDS = {"the", "of", "and", "to", "in", "is", "are", "for", "that", "with", "be", "this", "on",
                   "as", "has", "have", "was", "were", "which", "by", "more", "an", "a", "it", "its", "from"}


def _prose(text: str) -> bool:
    """A line of a sentence: eight words or more, most of them in small letters and three
    of them words like "the" and "is", and no address (an affiliation's line is mostly
    capitalised: "FORTH-ICS FORTH-ICS a& Univ. of Crete FORTH-ICS & Univ. of Rennes 1")."""
    words = re.findall(r"[^\W\d_]+", text)
    return len(words) >= 8 and sum(w.lower() in _FUNCTION_WORDS for w in words) >= 3 \
        and sum(w[0].islower() for w in words) > len(words) / 2 and not _EMAIL.search(text)


def _domains(lines: list[Line]) -> set[str]:
    """The labels of the mail domains printed in ``lines``, without their top level
    ("willowgarage" of "jamesb@willowgarage.com"): an organisation named as its domain, set
    in a byline's stack like a name ("James Bowman" / "Willow Garage" / "Menlo Park, CA"), is
    no author. A domain holding its address's user ("bob@bobjones.org") is a person's own,
    and web addresses are left out: a byline may print its author's home page."""
    labels: set[str] = set()
    for line in lines:
        for user, host in re.findall(r"([\w.+-]+)@([\w.-]+\.[a-z]{2,})", line.text, re.I):
            user = re.sub(r"[^a-z]", "", user.lower())
            labels.update(label.lower() for label in host.split(".")[:-1]
                          if len(label) >= 6 and not (len(user) >= 3 and user in label.lower()))
    return labels


def _domains_company(name: str, domains: set[str]) -> bool:
    """A company named by the first part of a hyphenated mail domain and a word of its own
    ("Yandex Market" over "trofim@yandex-team.ru"); not a person whose given name a host
    holds ("Andrew" of "andrew.cmu.edu": no hyphen) or whose whole name one does
    ("Jessica Lee" of "jessica-lee.com")."""
    words = [re.sub(r"[^a-z]", "", w.lower()) for w in name.split()]
    return any("-" in label and label.split("-")[0] == words[0] and len(words[0]) >= 5
               and not any(w in label for w in words[1:]) for label in domains)


# a sidebar's heading that reads as a name ("Author Keywords", "ACM Classification Keywords")
_SIDEBAR_HEADING = re.compile(r"\b(?:keywords?|terms|categories|classification|acknowledg\w*)\b", re.I)


def _stacked_blocks(names: list[str], alone: dict[str, Box], first: PageText) -> list[str]:
    """The author blocks stacked down a column under the last name read, each a name over
    its affiliation, address or e-mail, the next apart by a gap or after an e-mail (CHI's
    extended abstracts set them in a sidebar beside the abstract: "Samuel J. Kaufman" / "Dept.
    of Computer Science & Engineering" / … / "kaufmans@cs.washington.edu", then "M. Six
    Silberman" / "Bureau of Economic Interpretation" / …), down to a wide gap. Only when the
    last name's own block is such a block; a block whose first line names no one person, or
    that holds no affiliation, ends them ("Author Keywords" reads as a name)."""
    if not names or names[-1] not in alone:
        return names
    box = alone[names[-1]]
    start = next((ln for ln in first.lines if ln.bbox == box), None)
    if start is None:
        return names
    height = max(box[3] - box[1], 1.0)
    column = sorted((ln for ln in first.lines if abs(ln.bbox[0] - box[0]) <= 2 and ln.bbox[1] >= box[1]
                     and abs(ln.size - start.size) <= 0.05 * max(start.size, 1.0)), key=lambda ln: ln.bbox[1])
    blocks: list[list[Line]] = [[start]]
    for above, line in zip(column, column[1:]):
        gap = line.bbox[1] - above.bbox[3]
        if gap > 6 * height or _COPYRIGHT.search(line.text) or _STOP_AUTHORS.match(line.text.strip()):
            break
        if gap > 0.8 * height or _EMAIL.search(above.text):
            blocks.append([line])
        else:
            blocks[-1].append(line)

    def affiliation(text: str) -> bool:
        # an institution's or a place's line, mostly capitalised (not a list of keywords,
        # "Sustainability; social computing", nor prose under a heading, "Systems that reduce …")
        words = [w for w in re.findall(r"[^\W\d_]+", text)
                 if w.lower() not in _FUNCTION_WORDS and w.lower() not in _PARTICLES and w.lower() not in {"e", "et", "und"}]
        return ";" not in text and (_org(text) or _place(text)) \
            and sum(any(ch.isupper() for ch in w) for w in words) >= 0.6 * max(len(words), 1)

    def affiliated(block: list[Line]) -> bool:
        return len(block) >= 2 and any(_EMAIL.search(ln.text) or affiliation(ln.text) for ln in block[1:])

    if not affiliated(blocks[0]):
        return names
    out = list(names)
    for block in blocks[1:]:
        found = None if _SIDEBAR_HEADING.search(block[0].text) else _names(block[0].text.strip())
        if not found or len(found) != 1 or found[0] in out or not affiliated(block):
            break
        out.append(found[0])
    return out


def _by_stacks(names: list[str], boxes: dict[str, Box], lines: list[Line], width: float) -> list[str]:
    """Names set in columns, one name a line, read column by column when a column's names
    are stacked right under one another beside the other columns' affiliations: a block of
    people who share an affiliation printed under them (Stonebraker, Madden, Abadi and
    Harizopoulos over "MIT CSAIL", Madden's line beside Hachem's "AvantGarde Consulting").
    Names a column holds apart (an ACM grid's rows of blocks) or side by side in rows (a
    grid of bare names) keep the rows' order."""
    if len(names) < 3 or any(n not in boxes for n in names):
        return names
    columns: list[list[str]] = []
    for name in sorted(names, key=lambda n: (boxes[n][0] + boxes[n][2]) / 2):
        middle = (boxes[name][0] + boxes[name][2]) / 2
        if columns and abs(middle - (boxes[columns[-1][0]][0] + boxes[columns[-1][0]][2]) / 2) < 0.08 * width:
            columns[-1].append(name)
        else:
            columns.append([name])
    if len(columns) < 2 or all(len(c) == 1 for c in columns):
        return names
    named = set(boxes.values())
    for column in columns:
        column.sort(key=lambda n: boxes[n][1])
        left, right = min(boxes[n][0] for n in column), max(boxes[n][2] for n in column)
        for upper, lower in zip(column, column[1:]):
            height = max(boxes[upper][3] - boxes[upper][1], 1.0)
            if boxes[lower][1] - boxes[upper][3] > 0.6 * height:
                return names  # something printed between them: rows of blocks
        if len(column) > 1:
            top, bottom = boxes[column[1]][1], boxes[column[1]][3]
            if not any(ln.bbox not in named and ln.bbox[1] < bottom and top < ln.bbox[3]
                       and not left <= (ln.bbox[0] + ln.bbox[2]) / 2 <= right for ln in lines):
                return names  # no other column's affiliation beside its second name: a grid of bare names
    return [n for column in columns for n in column]


def _byline_paragraph(lines: list[Line], at: int) -> list[Line]:
    """``lines[at]`` and the lines that go on with it in the same type, up to ten: a USENIX
    cover's "Name, Affiliation; Name and Name, Affiliation; …" wraps inside its groups, so
    no line of it reads alone."""
    block = [lines[at]]
    while len(block) < 10 and at + len(block) < len(lines) and _joins(block[-1], lines[at + len(block)], 1.0):
        block.append(lines[at + len(block)])
    return block


def _marks_over(line: Line, near: list[Line]) -> bool:
    """A row of footnote marks ("1 2 3") set on the names they mark: it overlaps the line of
    names over or under it and spans no wider (a table's or a chart's row of numbers stands
    apart from its neighbours)."""
    return re.fullmatch(r"[\d\s,∗*†‡§¶]+", line.text.strip()) is not None and any(
        line.bbox[1] < ln.bbox[3] and line.bbox[3] > ln.bbox[1]
        and line.bbox[0] >= ln.bbox[0] - 2 and line.bbox[2] <= ln.bbox[2] + 2 for ln in near)


def _byline_alone(first: PageText) -> list[str]:
    """The authors of a page whose title could not be read: the first line in its upper
    part that reads as names and stands right over an affiliation, an address or an
    e-mail ("Keith L. Clark & Steve Gregory" / "Department of Computing, Imperial College")."""
    lines = _in_rows([ln for ln in first.lines if ln.bbox[1] < 0.45 * first.height])
    for line, under in zip(lines, lines[1:]):
        if _STOP_AUTHORS.match(line.text.strip()) or re.match(r"^(?:[IVX]+\.|\d+\.?)\s+[A-Z]", line.text.strip()):
            break  # the body's first heading ("I. INTRODUCTION")
        height = max(line.bbox[3] - line.bbox[1], 1.0)
        close = 0 <= under.bbox[1] - line.bbox[3] < 1.5 * height and under.bbox[0] < line.bbox[2] \
            and line.bbox[0] < under.bbox[2]  # a typescript's double spacing too
        text = under.text.strip()
        names = _line_names(line) or _apart_names(line) if close else None
        if names and (_org(text) or _place(text) or _EMAIL.search(text)):
            return names
    return []


def _sidebar_names(lines: list[Line], width: float) -> list[str]:
    """Bylines in a column of their own beside the body (a magazine's: ACM Queue sets
    "BRENDAN BURNS," / "BRIAN GRANT," … / "JOHN WILKES," in capitals left of the first
    paragraph, each on the row of a line of it, a drop cap making the rows tall): the rows'
    first cells in capitals that name one person, read down the column by their own top.
    Taken when some of them share their row with the body's text."""
    found: list[tuple[float, str]] = []
    beside = False
    for line in lines:
        cell = line.cells[0] if line.cells else line.text
        text = re.sub(r"(?:,\s*|\s+)AND$", "", cell.strip()).strip(" ,")
        if not text or not text.isupper() or line.bbox[0] > 0.35 * width:
            continue
        names = _names(text)
        if not names or len(names) != 1:
            continue
        found.append((line.boxes[0][1] if line.boxes else line.bbox[1], names[0]))
        beside = beside or len(line.cells) > 1 and not any(_names(c) for c in line.cells[1:])
    return [n for _, n in sorted(found)] if len(found) >= 2 and beside else []


def _middle(line: Line, piece: str) -> float:
    """The horizontal middle of ``piece`` printed on ``line`` (the line's middle when its
    characters' boxes are not one to one)."""
    at = line.text.find(piece)
    if at < 0 or len(line.boxes) != len(line.text) or not piece:
        return (line.bbox[0] + line.bbox[2]) / 2
    return (line.boxes[at][0] + line.boxes[at + len(piece) - 1][2]) / 2


def _type_height(line: Line) -> float:
    """The median height of a line's characters' boxes (its size as drawn)."""
    heights = sorted(b[3] - b[1] for b in line.boxes if b[3] > b[1])
    return heights[len(heights) // 2] if heights else line.size


def _cells_in_type(line: Line, size: float) -> list[tuple[str, float]]:
    """The cells of a line set in a smaller type that are printed in ``size`` (by their
    characters' heights), with their middles."""
    if len(line.cells) < 2 or len(line.boxes) != len(line.text):
        return []
    if _type_height(line) > 0.9 * size:
        return []
    out = []
    for cell in line.cells:
        at = line.text.find(cell)
        if at < 0:
            continue
        own = sorted(b[3] - b[1] for b in line.boxes[at:at + len(cell)] if not b[3] <= b[1])
        if own and abs(own[len(own) // 2] - size) <= 0.1 * size:
            out.append((cell, _middle(line, cell)))
    return out


def _in_rows(lines: list[Line]) -> list[Line]:
    """Lines in reading order by printed rows: a line whose middle lies within the height
    of the row's first line is on that row, read left to right ("Tom Leighton^1,2" stands
    taller than the names beside it for its superscript, not above them)."""
    rows: list[list[Line]] = []
    for line in sorted(lines, key=lambda ln: ln.bbox[1]):
        middle = (line.bbox[1] + line.bbox[3]) / 2
        if rows and rows[-1][0].bbox[1] <= middle <= rows[-1][0].bbox[3]:
            rows[-1].append(line)
        else:
            rows.append([line])
    return [ln for row in rows for ln in sorted(row, key=lambda ln: ln.bbox[0])]


def _lists_kept_whole(lines: list[Line]) -> list[Line]:
    """A list of names that wraps inside its block ("Mihajlo Grbovic, Vladan Radosavljevic," /
    "Nemanja Djuric, Narayan Bhamidipati" over Yahoo Labs, beside another company's block) is
    read to its end before the block beside it: the line ending in a comma is followed by
    the line of names centred right under it, not by the row's next block."""
    pending = list(lines)
    out: list[Line] = []
    while pending:
        line = pending.pop(0)
        out.append(line)
        nxt = _wrapped_in_block(line, pending, lines)
        if nxt is not None:
            pending = [nxt] + [ln for ln in pending if ln is not nxt]
    return out


def _wrapped_in_block(line: Line, rest: list[Line], lines: list[Line]) -> Line | None:
    """The line of names in ``rest`` that goes on with ``line``'s list inside its block, if
    any (``lines``: all of them, for the blocks beside it)."""
    if not line.text.rstrip().endswith(",") or len(_names(line.text.strip()) or []) < 2:
        return None
    height = max(line.bbox[3] - line.bbox[1], 1.0)
    middle = (line.bbox[0] + line.bbox[2]) / 2
    # (centred under it, as a block's lines are: a list wrapped across the page, cut at the
    # gutter, sets its next row's piece against the gutter instead)
    under = [ln for ln in rest if 0 <= ln.bbox[1] - line.bbox[3] + 0.2 * height < 0.8 * height
             and ln.bbox[0] < line.bbox[2] and line.bbox[0] < ln.bbox[2]
             and abs((ln.bbox[0] + ln.bbox[2]) / 2 - middle) < height]
    if len(under) != 1 or not _names(under[0].text.strip()):
        return None
    beside = [ln for ln in lines if ln is not line and line.bbox[1] <= (ln.bbox[1] + ln.bbox[3]) / 2 <= line.bbox[3]]
    if any(ln.bbox[0] < under[0].bbox[2] and under[0].bbox[0] < ln.bbox[2] for ln in beside):
        return None  # one list wrapped across the page's width, cut at its gutter: no block
    return under[0]


def _running_head(line: Line) -> bool:
    """A running head or foot that numbers its page in a cell ("Sampling Theory      Page 1"):
    no byline."""
    return any(re.fullmatch(r"page\s+\d+(?:\s+of\s+\d+)?", c.strip(), re.I) for c in line.cells)


def _line_names(line: Line) -> list[str] | None:
    """The names on a printed line: one per cell, or split at commas and "and", or at
    spaces wider than a word space. A "name" of four words or more that the wide spaces
    part into names of two words or more is those people: a footnote mark taken out of the
    line's text leaves the space it stood in."""
    if _running_head(line):
        return None
    cells = _cell_names(line.cells) if len(line.cells) > 1 else None
    if cells:
        return cells
    whole = _names(line.text.strip())
    if whole is not None and all(len(n.split()) < 4 for n in whole):
        return whole
    spaced = _cell_names(_spaced(line))
    if whole and spaced and len(spaced) > len(whole) and all(len(n.split()) >= 2 for n in spaced):
        # a name of four words may be two people a footnote mark set apart ("Guillaume
        # Lample♠ Miguel Ballesteros♣♠" with the marks taken out of the line's text;
        # "Pengfei Liu Xipeng Qiu⇤ Xuanjing Huang", the mark a comma)
        return spaced
    return whole or spaced


def _apart_names(line: Line) -> list[str] | None:
    """Names set far apart on a line whose every word is a cell of its own, as a scan's
    text layer gives them ("Venky  Harinarayan      Anand  Rajaraman      Jeffrey  D.  Ullman",
    "Panos K. Chrysanthis        Krithi Ramamritham"): the line cut at the spaces at least
    twice as wide as any other and wider than the type's size, each piece one name of two
    words or more."""
    if len(line.boxes) != len(line.text):
        return None
    words = [(m.start(), m.end()) for m in re.finditer(r"\S+", line.text)]
    if len(words) < 4:
        return None
    gaps = [line.boxes[nxt][0] - line.boxes[end - 1][2] for (_, end), (nxt, _) in zip(words, words[1:])]
    ordered = sorted(gaps)
    jump = max(range(1, len(ordered)), key=lambda i: ordered[i] / max(ordered[i - 1], 0.1))
    wide = ordered[jump]
    if wide < 2 * max(ordered[jump - 1], 0.1) or wide < max(line.size, 1.0):
        return None
    pieces, start = [], 0
    for i, gap in enumerate(gaps):
        if gap >= wide:
            pieces.append(line.text[words[start][0]:words[i][1]])
            start = i + 1
    pieces.append(line.text[words[start][0]:words[-1][1]])
    out: list[str] = []
    for piece in pieces:
        found = _names(piece)
        if not found or len(found) != 1 or len(piece.split()) < 2:
            return None
        out.extend(found)
    return out


def _names_beside_affiliations(cells: list[str]) -> list[str] | None:
    """A line of two columns, the authors' and the affiliations' ("Max Jaderberg   Visual
    Geometry Group", "Andrea Vedaldi   University of Oxford"): the names of the leading
    cells, when every cell after them is an affiliation, an address or an e-mail ("Amazon
    Web Services" set wide is no name after an affiliation)."""
    names: list[str] = []
    for at, cell in enumerate(cells):
        if _org(cell) or _place(cell) or _EMAIL.search(cell):
            rest = cells[at:]
            return names if names and all(_org(c) or _place(c) or _EMAIL.search(c) for c in rest) else None
        found = _names(cell)
        if not found:
            return None
        names.extend(found)
    return None


def _rows(lines: list[Line], gap: float = 1.0) -> list[Line]:
    """Pieces of one printed line that reading order split (a name broken around a
    footnote mark: "Conor" … "McBride"), joined again; pieces far apart (more than ``gap``
    times the type size) stay apart (two author blocks side by side). An accent drawn
    apart from its letter is no piece; pieces that touch are one word ("Emin G" "ün Sirer")."""
    out: list[Line] = []
    for line in lines:
        if line.text.strip() and all(_accent(ch) or ch.isspace() for ch in line.text):
            continue
        last = out[-1] if out else None
        if last is not None and abs(last.bbox[1] - line.bbox[1]) < 2 and abs(last.size - line.size) < 0.5 \
                and -0.05 * line.size <= line.bbox[0] - last.bbox[2] < gap * max(line.size, 1.0):
            near = line.bbox[0] - last.bbox[2] < max(line.size, 1.0)
            glued = line.bbox[0] - last.bbox[2] < 0.1 * line.size
            text = f"{last.text}{'' if glued else ' '}{line.text}"
            cells = (last.cells[:-1] + [last.cells[-1] + line.cells[0]] + line.cells[1:]
                     if glued and last.cells and line.cells else last.cells + line.cells)
            out[-1] = Line(text=text, boxes=last.boxes + ([] if glued else [line.bbox]) + line.boxes,
                           bbox=(last.bbox[0], min(last.bbox[1], line.bbox[1]), line.bbox[2],
                                 max(last.bbox[3], line.bbox[3])),
                           size=last.size, bold=last.bold,
                           cells=cells if near else [text])  # set wide: one phrase
        else:
            out.append(line)
    return out


def _accent(ch: str) -> bool:
    return bool(unicodedata.combining(ch)) or unicodedata.category(ch) == "Sk"


def _under(line: Line, following: Line) -> bool:
    """``following`` is the next printed line under ``line`` (whatever the sizes read:
    old Type 3 fonts report "M Gatford" larger than the names above it)."""
    height = max(line.bbox[3] - line.bbox[1], following.bbox[3] - following.bbox[1], 1.0)
    return 0 <= following.bbox[1] - line.bbox[3] < 0.8 * height \
        and following.bbox[0] < line.bbox[2] and line.bbox[0] < following.bbox[2]


def _joins(line: Line, following: Line, space: float = 0.6) -> bool:
    """``following`` goes on with ``line``: same type, right under it (less than ``space``
    times the line's height between them)."""
    height = max(line.bbox[3] - line.bbox[1], 1.0)
    return abs(line.size - following.size) < 0.5 and -0.2 * height <= following.bbox[1] - line.bbox[3] < space * height \
        and abs(following.bbox[0] - line.bbox[0]) < 0.5 * (line.bbox[2] - line.bbox[0])


def _spaced(line: Line) -> list[str]:
    """The line cut where the space between words is wider than a word space: names set
    apart by a footnote mark that was taken out ("Kyle Lo†  Lucy Lu Wang†  Mark Neumann†")."""
    pieces: list[str] = []
    start = 0
    for i, ch in enumerate(line.text):
        if ch == " " and 0 < i < len(line.text) - 1 and len(line.boxes) == len(line.text):
            gap = line.boxes[i + 1][0] - line.boxes[i - 1][2]
            if gap > 0.6 * max(line.size, 1.0):
                pieces.append(line.text[start:i])
                start = i + 1
    pieces.append(line.text[start:])
    return [p for p in pieces if p.strip()]


def _cell_names(cells: list[str]) -> list[str] | None:
    """Names set in a grid, one per cell ("Ashish Vaswani   Noam Shazeer   …"). A cell of
    accents alone (a breve drawn apart from "Babaoglu") is no cell."""
    out: list[str] = []
    for cell in cells:
        if cell.strip() and all(unicodedata.combining(ch) or unicodedata.category(ch) == "Sk" or ch.isspace()
                                for ch in cell) or sum(ch.isalpha() for ch in _GRADE.sub("", cell)) < 2:
            continue  # an accent drawn apart, a stray letter of a badge beside the name ("o", "a"), a
            # grade in a cell of its own ("1 (Senior Member, IEEE)")
        found = _names(cell)
        if found is None:
            return None
        out.extend(found)
    return out


# The commonest Chinese surnames (those of most people), and the double ones: a Chinese
# name is its surname and one or two letters, printed without a space ("金斌", "欧阳修")
_CN_SURNAMES = set("王李张刘陈杨黄赵吴周徐孙马朱胡郭何高林罗郑梁谢宋唐许韩冯邓曹彭曾肖田董袁潘于蒋蔡余杜叶程苏魏吕丁任"
                   "沈姚卢姜崔钟谭陆汪范金石廖贾夏韦付方白邹孟熊秦邱江尹薛闫段雷侯龙史陶黎贺顾毛郝龚邵万钱严覃武"
                   "戴莫孔向汤俞楼贝古骆倪葛")
_CN_DOUBLE_SURNAMES = ("欧阳", "司马", "诸葛", "上官", "东方", "皇甫", "尉迟", "公孙", "慕容", "令狐", "夏侯", "司徒")
# what an affiliation before a Chinese name ends in: a school, a university, a province's or
# a city's name ("江苏省常州高级中学 金斌", "福建师大附中 陈宏", "石家庄二中 贾志豪")
_CN_AFFILIATION = re.compile(r"(?:中学|附中|[一二三四五六七八九十]中|高中|学校|大学|学院|研究所|研究院|实验室|公司|系|省|市)$")


def _chinese_name(word: str) -> str | None:
    """A Chinese person's name: a common surname and one or two letters (a double surname
    and one or two), its footnote's mark dropped ("金斌∗")."""
    word = re.sub(r"[" + _FOOTNOTE + r"∗*\d]+$", "", word)
    if not re.fullmatch(r"[\u4e00-\u9fff]{2,4}", word):
        return None
    if word[:2] in _CN_DOUBLE_SURNAMES:
        return word if len(word) in (3, 4) else None
    return word if word[0] in _CN_SURNAMES and len(word) <= 3 else None


def _chinese_byline(text: str) -> list[str] | None:
    """A Chinese byline: names alone ("龙翀", "陈宏 李明"), after their school ("江苏省常州
    高级中学 金斌"), or after "作者" ("作者：张三"); a nickname in Latin letters after the name
    is left out ("胡伯涛 Amber"). None when the line is something else."""
    text = re.sub(r"^作\s*者\s*[:：]\s*", "", text.strip())
    words = text.split()
    if words and len(words) >= 2 and re.fullmatch(r"[A-Za-z]+", words[-1]) and _chinese_name(words[-2]):
        words = words[:-1]
    names = [_chinese_name(w) for w in words]
    if words and all(names):
        return [n for n in names if n]
    if len(words) >= 2 and names[-1] and all(_CJK.search(w) for w in words[:-1]) \
            and _CN_AFFILIATION.search(words[-2]):
        return [names[-1]] if names[-1] else None
    return None


def _names(text: str) -> list[str] | None:
    """The names on a line of authors, or None when the line is something else (an
    affiliation, an address, an e-mail, a date): every piece must be name-shaped."""
    if _CJK.search(text):
        chinese = _chinese_byline(text)
        # "Li-Wen Hsu (許立文) <lwhsu@FreeBSD.org>": a name in Latin letters, the Chinese one beside it
        text = re.sub(r"\s*[(（][^()（）]*[)）]", " ", text).strip() if chinese is None else text
        if chinese is not None or _CJK.search(text):
            return chinese
    # "Poul-Henning Kamp <phk@FreeBSD.org>": the address beside the name is no part of it
    text = re.sub(r"<[^<>\s]*@[^<>\s]*>|\(\s*[^()\s]*@[^()\s]*\s*\)", " ", _superscript_bracket(text)).strip()
    if _column_banner(text) or re.search(r"\b[A-Z]{2,}\d{3,}\b(?![^()]*\))", text):  # (a lab's "(IRIT UMR5505)" is none)
        return None  # "Functional Pearl" under a title; a document's number, "IPD279" over its date
    # "PETER IAN KUNIHOLM - MARYANNE W. NEWTON": names in capitals parted by spaced dashes, one
    # with an initial (a subtitle's "CACHE COHERENCE - DIRECTORY PROTOCOLS" has none)
    if text.isupper() and re.search(r"[^\W\d_]{2}\s[-–]\s[^\W\d_]", text) and re.search(r"\b[A-Z]\.(?:\s|$)", text):
        text = re.sub(r"\s[-–]\s", ", ", text)
    text = re.sub(r"^\(" + _Y + r"\)\s+(?=[A-Z])", "", text)  # "(2012) Nick Bostrom": a byline dated before the name
    # A superscript after a name, or a mark with a space after it, ends the name: "Kyle
    # Lo^(α∗) Zejiang Shen^(α,τ∗)", "Kalpesh Krishna♠ ∗ Erin Bransom♢" (its commas are no
    # separators of their own)
    # ("Ramesh Govindan†?, Ina Minei†": a second mark the font did not map, read as a "?")
    text = re.sub(r"(?<=[" + _FOOTNOTE + r"])\?+", "", text)
    text = re.sub(r"\^\([^)]*\)|\^[^\s(,]+|(?:[" + _FOOTNOTE + r"♯⋆♣♦♥♠♢♡♤♧]|" + _FONT_MARK + r")+(?=\s)", ",", text)
    # "Janet Siegmundπ, Christian Kästnerω": a Greek letter glued to a Latin surname is its
    # affiliation's mark (a cell's text, where the caret the line's text gives it is not written)
    text = re.sub(r"(?<=[a-zß-ÿ])[α-ω]+(?=[" + _FOOTNOTE + r"]*\s*(?:,|;|&|\band\b|$))", "", text)
    text = re.sub(r"(?<=,)[α-ωΑ-Ω]+(?=\s|$)", "", text)  # "Tanja Lange,Ω": the mark after the name's comma
    text = _own_address_dropped(text)
    # "Steven 0. Hobbs": a scan's text layer reads an initial's O as a zero
    text = re.sub(r"\b(?!(?i:chapter|section|part|lecture|appendix|step|stage|phase|unit|lesson|week|problem|exercise|homework)\b)([^\W\d_]+) 0\.(?= [A-Z][a-z])", r"\1 O.", text)
    # "Josef Templ, Dipl. Ing.", "Ann Lee, Ph.D.": a degree after a name is no name
    text = re.sub(r",?\s*(?:Dipl\.?[\s_.-]*(?:Ing|Inform|Math|Phys|Kfm)\.?|Ph\.\s?D\.?|M\.\s?Sc\.?|B\.\s?Sc\.?|"
                  r"M\.(?:Eng\.?|\s?Eng\.)|Dr\.\s?rer\.\s?nat\.?)(?=\s*(?:,|;|$))", "", text)
    # and written without its dots, after a surname ("Andrea Hartzler, PhD, Christopher Powell",
    # "Jane Roe, MD, MPH"); a line that opens with one goes on with a list the line over it
    # began ("…, Kenton T. Unruh," / "PhD, Wanda Pratt, PhD,"): not a line of names itself
    # ("Silver Spring, MD": a state's code at a line's end is no degree)
    # (a name is one when its list holds another degree or a ";", or it has an initial)
    people = bool(re.search(r";|\b(?:PhD|DPhil|MPH|MBA)\b|,\s*MD\b.*,\s*MD\b|\b[A-Z]\.\s+[^\W\d_][\w'’-]*\.?,\s*MD\s*$", text))
    text = re.sub(r"(?<=\S),\s*(?:(?:PhD|DPhil|MPH|MBA)\b(?=\s*(?:,|;|&|\band\b|$))|MD\b(?=\s*(?:,|;|&|\band\b)"
                  + (r"|\s*$" if people else "") + "))", "", text)
    # "…, Linxi “Jim” Fan, …": a nickname in quotes between a given name and a surname, in a
    # list of names (a title's quoted word is no nickname: "Rethinking “Cloud” Economics")
    if re.search(r",|;|&|\band\b", text):
        text = re.sub(r"(?<=[^\W\d_])\s+[“\"‘][^\W\d_]+[”\"’]\s+(?=[^\W\d_])", " ", text)
    # "Peter G. Neumann et al.": a byline that names its first author only (CACM's column for a
    # committee's report) gives that one; a surname alone ("Smith et al.") is a citation's
    # (prose's "Following Laporte et al." is none)
    first_only = re.fullmatch(r"([^\W\d_][^,;&]*?\s[^,;&]+?),?\s+et\s+al\.?", text)
    if first_only and not re.search(r"\band\b", first_only.group(1)) \
            and first_only.group(1).split()[0].lower() not in _PROSE_OPENERS:
        text = first_only.group(1)
    # "Carl Hewitt ©2013": the author's copyright beside the name
    text = re.sub(r"\s*(?:©|\([cC]\)|\bcopyright\b)\s*(?:19|20)\d\d\b(?=\s*(?:,|$))", " ", text, flags=re.I)
    if re.match(r"(?:[BM]\.(?:A\.)?(?:Sc|S|A|Eng)\.|Ph\.\s?D\.)\s*(?:,|in\b|$)", text):
        return None  # a degree's line under the author's name: "B.A.Sc., East China University of …, 1989"
    # "Mihai Let,ia": a comma below a letter (ț) drawn as a comma of its own
    text = re.sub(r"(?<=[a-z]),(?=[a-z]{2})", "", text)
    # "Barry Hayes’", "Hong-Tai Chou”": a closing quote after a surname, where the page prints a footnote mark
    text = re.sub(r"(?<=[a-z])[’'”](?=\s*(?:,|$))", "", text)
    # "Emin G ¨ un Sirer ¨", "Laszl ´ o": an accent drawn apart from its letter
    text = re.sub(r"(?<=[^\W\d_]) ?[¨´`ˆ˜ˇ¸˝˘] ?(?=[^\W\d_])|\s[¨´`ˆ˜ˇ¸˝˘](?=\s|,|$)", "", text)
    # "JACK GOLDBERG, SENIOR MEMBER, IEEE,": an IEEE grade after a name is no name
    text = _GRADE.sub(",", text).strip(" ,")
    # "IVIukesh Singhal": a scan's text layer reads a capital M as I, V and I
    text = re.sub(r"\bIVI(?=[a-z]{2})", "M", text)
    # "Jeffrey D. U1lman": a scan's text layer reads an l as a 1 inside a word
    text = re.sub(r"(?<=[^\W\d_])1(?=[a-z]{2})(?!and\b)", "l", text)  # (not "Kim1a", "Li1and")
    # "Sturt W Manning1 Mike Barbetti2 Bernd Kromer3": glued to the names with no commas
    # between them, each number ends a name
    if len(re.findall(r"(?<=[a-z])\d{1,2}(?=\s+[A-Z]|\s*$)", text)) >= 2:
        text = re.sub(r"(?<=[a-z])\d{1,2}(?=\s+[A-Z])", ",", text)
    # "Ming Li1,2, Wei Zhang2": affiliation numbers glued to a name (commas between them);
    # "Ann Lee (Stanford) and Bo Li (MIT)": an affiliation in brackets after a name
    text = re.sub(r"(?<=[^\W\d_])\d{1,2}(?:\s*,\s*\d{1,2})*(?=\s*(?:,|;|&|\band\b|$))", "", text)
    text = re.sub(r"(?<=\w)\s*\([^()]{1,60}\)(?=\s*(?:,|;|&|\band\b|\.?$))", "", text)  # ("… (2014).")
    # "M. PEASE, R, SHOSTAK": a scan's text layer reads an initial's dot as a comma
    text = re.sub(r"(?:^|(?<=,\s))([A-Z]),\s+(?=[A-Z]{2,}\b)", r"\1. ", text)  # (not "Priya R, Karthik S")
    # "Charles H.Moore", "O.SCHENK": a space the typescript left out after an initial
    text = re.sub(r"(?<=\b[A-Z]\.)(?=[A-Z][a-z])|(?<=\b[A-Z]\.)(?<!U\.S\.)(?<!U\.K\.)(?<!N\.V\.)(?=[A-Z]{2,}\b)", " ", text)
    # "Sencun Zhu?, Sanjeev Setia", "Manuel Koch! and …": a star or a dagger some fonts map to
    # "?" or "!", on a name before the next one (at the end a question's or an exclamation's
    # own: "Fearless Concurrency?", "2 Enter OCaml!", "Big Data? and Big Brother?", unless names
    # before it had them too: "Alexander Brodsky!? and Hadon Nash?", a scan's "1,2" and "2")
    # (two marks on one name, a scan's "1,2" read "!?", or marks on two names)
    marks = re.findall(r"(?<=[^\W\d_]{2})[?!]+(?=\s*(?:[,;&∗*]|(?i:and)\s))", text)
    text = re.sub(r"(?<=[^\W\d_]{2})[?!]+(?=\s*(?:[,;&∗*]|(?i:and)\s))", "", text)
    if len(marks) >= 2 or any(len(mark) >= 2 for mark in marks):
        text = re.sub(r"(?<=[^\W\d_]{2})[?!]+$", "", text.rstrip())
    # "Guy Lewis Steele, Jr.": a suffix after the comma is part of the name before it
    text = re.sub(r",\s*(Jr\.?|Sr\.?|II|III|IV)(?=\s*(?:,|;|&|\band\b|$))", r" \1", text)
    # "1st Betül Güvenç Paltun   2nd Ramin Fuladi": the order IEEE's conference template prints
    text = re.sub(r"(?:^|(?<=[\s,]))[1-9](?:st|nd|rd|th)\s+(?=[^\W\d_])", "", text).strip()
    # "By: D. C. Engelbart"; an oral history's interviewers ("Conducted by William Aspray and …")
    # (a contract's report: "Principal Investigator: A. Jefferson Offutt", not its institution alone)
    byline = re.match(r"^(?:(?:conducted|interviewed)\s+)?(?:by|von|par|(?:co-?\s*)?principal\s+investigators?)\s*:?\s+(.*)$",
                      text.strip(), flags=re.I)
    text = byline.group(1) if byline else text.strip()
    if byline and re.match(r"(?:co-?\s*)?principal", byline.group(0), re.I) and _org(text) and "," not in text:
        return None
    if byline and (_org(text) or _place(text)):
        # "by Herbert Stoyan University of Erlangen …": the name before the affiliation
        words = text.split()
        text = " ".join(words[:_affiliation_start(words)])
        # ("By Dan Lavry, Lavry Engineering, Inc.": the company's first word, named for him)
        text = re.sub(r",\s*[^\s,]+$", "", text)
    if text and "," in text and (_org(text) or _EMAIL.search(text)) and not _NOT_TITLE.match(text):
        return _names_before_affiliations(text)
    capitals = _CAPITALS_THEN_WHERE.fullmatch(text)
    if capitals and not re.search(r"\d", capitals.group(2)):
        # ACM's "DIETMAR JANNACH, AAU Klagenfurt, Austria": the names in capitals, then an
        # affiliation and its country (not "PALO ALTO, California", not an address's lab in
        # capitals: "SFR MATHSTIC, F-49000 Angers, France")
        pieces = [p.strip() for p in capitals.group(2).split(",")]
        in_capitals = [_name(p.strip()) for p in capitals.group(1).split(",")]
        if len(pieces) >= 2 and _COUNTRY.fullmatch(pieces[-1]) and all(in_capitals) \
                and not any(_place(p) or _org(p) for p in capitals.group(1).split(",")) \
                and not _HEADING_WORDS.search(capitals.group(1)) \
                and all(re.search(r"[AEIOUY]", w) or re.fullmatch(r"[A-Z]\.", w) for w in capitals.group(1).split()):
            return [p for p in in_capitals if p]
    dashed = re.fullmatch(r"([^,;&–—]+?)\s+[–—]\s+((?:[A-Z][\w.&-]*\s+){2,}[A-Z][\w.&-]*)", text)
    if dashed and (_org(dashed.group(2)) or _UNIT.search(dashed.group(2))) and (name := _name(dashed.group(1))) is not None:
        # "James Hamilton – Windows Live Services Platform": an affiliation after a spaced dash
        # (INRIA's "Nuno Preguiça — Carlos Baquero Moreno" are two people)
        return [name]
    if not byline and _org(text):
        # "Hugh C. Lauer Xerox" / "Corporation Palo Alto,": a name with an initial, its
        # affiliation's first word wrapped up beside it
        words = text.split()
        cut = _affiliation_start(words)
        before = " ".join(words[:cut])
        if cut >= 2 and re.search(r"\b[A-Z]\.(?:\s|$)", before) and _COMPANY.fullmatch(words[cut].strip(",")) \
                and (name := _name(before)) is not None:
            return [name]  # a company's own name, never a generic word: "Paul G. Allen School", "… Acme Corporation"
    if not text or _EMAIL.search(text) or _org(text) or _place(text) \
            or _ANY_YEAR.search(text) or _NOT_TITLE.match(text):
        return None
    text = re.sub(r"[" + _FOOTNOTE + r"♯⋆♣♦♥♠♢♡♤♧]+|" + _FONT_MARK + "+", " ", text)  # "Damas‡and Milner": a mark is no part of a word
    if ";" in text and re.search(r"\w+,\s*\w", text):
        # "Bonnichsen, Lars Frydendal; Karlsson, Sven" — surname first
        parts = [" ".join(reversed([p.strip() for p in piece.split(",", 1)])) if "," in piece else piece
                 for piece in text.split(";")]
    else:
        parts = _SPLIT.split(text)
        glued = _SPLIT.split(re.sub(r"(?<=[a-z]{2})and\s+(?=[A-Z])", " and ", text))
        if any(_name(" ".join(_MARKS.sub(" ", p).split()).strip(" .,")) is None for p in parts if p.strip()) or \
                len(glued) > len(parts) and all(_name(" ".join(_MARKS.sub(" ", p).split()).strip(" .,"))
                                                for p in glued if p.strip()):
            # "Luis Damas‡and Robin Milner" with the mark taken out: "Damasand" (read as
            # one four-word name unless split where "and" is glued on)
            parts = glued
    return _all_names(parts, " .,") or None


# a portal's cover labels its fields: "Published in:", "DOI:", "Publication date:", "Document Version"
_PORTAL_LABEL = re.compile(r"(?:published in|doi|publication date)\s*:\s*$|document version\s*$", re.I)
_INVERTED = re.compile(r"([A-Z][^\W\d_]{2,}(?:-[A-Z][^\W\d_]+)?),\s*((?:(?:[A-Z][^\W\d_]+|[A-Z]\.)\s*){1,3})")


def _inverted_byline(first: PageText, title_lines: list[Line]) -> list[str]:
    """One author printed surname first on the line under the title, as a portal's cover
    prints it ("Liebe, Carl Christian") over its labelled fields ("Published in:", "DOI:"),
    when nothing else on the page reads as a byline. Only there: in a list of names the same
    shape is two people ("Fowers, Kalin Ovtcharov"), and a line under a title may be a place
    ("Durham, North Carolina")."""
    bottom = max(ln.bbox[3] for ln in title_lines)
    height = max(ln.bbox[3] - ln.bbox[1] for ln in title_lines)
    under = sorted((ln for ln in first.lines if ln not in title_lines and 0 <= ln.bbox[1] - bottom < 4 * height),
                   key=lambda ln: ln.bbox[1])
    inverted = _INVERTED.fullmatch(under[0].text.strip()) if under else None
    if inverted is None or _org(under[0].text) or _place(under[0].text) \
            or not any(_PORTAL_LABEL.match(ln.text.strip()) for ln in first.lines):
        return []
    name = _name(f"{inverted.group(2).strip()} {inverted.group(1)}")
    return [name] if name else []


# A magazine's standfirst naming its writer as its last sentence's subject, opening its line:
# "Kevlin Henney appeals for a reform of the C++ education system", "Jane Doe explains why …"
_STANDFIRST = re.compile(r"([A-Z][\w'’.-]+(?:\s+[A-Z][\w'’.-]+){1,2})\s+(?:appeals|argues|explains|describes|"
                         r"considers|examines|investigates|presents|explores|asks|reports|discusses|reviews|"
                         r"introduces|shares|tells|reflects|suggests|wonders|demonstrates|outlines|proposes)\b")


def _standfirst_writer(first: PageText, title_lines: list[Line]) -> list[str]:
    """The writer a magazine names in the standfirst by its title, in the standfirst's
    larger type, when the page prints no byline: a line opening on the name and a verb of
    telling (not a topic's words, "Deep Learning"; not a sentence of an abstract, under its
    heading)."""
    top = min(ln.bbox[1] for ln in title_lines)
    bottom = max(ln.bbox[3] for ln in title_lines)
    body = _body_size(first.lines)
    stop = min((ln.bbox[1] for ln in first.lines if _STOP_AUTHORS.match(ln.text.strip())), default=first.height)
    near = [ln for ln in first.lines if ln not in title_lines and ln.size > 1.1 * body and ln.bbox[1] < stop
            and top - 0.15 * first.height <= ln.bbox[1] <= bottom + 0.15 * first.height]
    for line in near:
        match = _STANDFIRST.match(line.text.strip())
        name = _name(match.group(1)) if match else None
        if name and not any(w.lower() in _SUBJECT_WORDS for w in name.split()):
            return [name]
    return []


def _column_major(authors: list[str], first: PageText | None) -> list[str]:
    """Names in two columns read row by row, where the byline runs alphabetically down the
    columns: System R's sixteen authors, Astrahan under Chamberlin in the left column, Price
    at the top of the right one. Near sorted by surname down the columns (a lead author may
    come first, a surname may be filed by another word: a step back in eight) and far from it
    across the rows, they were listed down the columns; six names or more (chance orders no
    such list). Only names the page sets in two columns, alternating left and right."""
    if len(authors) < 6 or len(authors) % 2 or first is None:
        return authors
    claimed: set[tuple[int, int]] = set()
    xs = [_name_x(name, first, claimed) for name in authors]
    left, right = [x for x in xs[0::2] if x is not None], [x for x in xs[1::2] if x is not None]
    if len(left) + len(right) < len(xs) or max(left) - min(left) > 15 or max(right) - min(right) > 15 \
            or min(right) - max(left) < 50:
        return authors
    def back_steps(names: list[str]) -> int:
        keys = [_key(n.split()[-1]) for n in names]
        return sum(a > b for a, b in zip(keys, keys[1:]))
    down = authors[0::2] + authors[1::2]
    if back_steps(down) <= len(authors) // 8 and back_steps(authors) >= len(authors) // 3:
        return down
    return authors


# A mark on a byline the page prints: a star, a dagger, a superscript, a digit after a surname
_SHOWN_MARK = re.compile(r"[" + _FOOTNOTE + r"]+|\^\([^)]*\)|\^\S|\d+(?:,\d+)*")
# An affiliation led by its mark: "t IBM Corporation", "$ IRISA", "5 Department", "*The
# University", "+Dept.", "]'Strategic CAD Labs" (a scan's OCR reads the dagger as it can)
_MARK_LED = re.compile(r"^\s*(?:[" + _FOOTNOTE + r"+$#\]\['‘’`]+\s*|[tfs$]\s+|\d\s*)(?=[A-Z])")
# The letters OCR makes of a dagger, a double dagger and a section sign
_MARK_AS_LETTER = "tfs"


def _names_run_together(authors: list[str], first: PageText | None) -> list[str]:
    """Two names on one line with no gap or comma between them, read as one of four words
    ("Olivier Danvy Andrzej Filinski"): two names when the two addresses under it hold the
    second and the fourth word ("(danvy @cis.ksu.edu) (Andrzej. Filinski@cs.cmu.edu)")."""
    if first is None or len(authors) != 1:
        return authors
    words = authors[0].split()
    if len(words) != 4 or not all(re.fullmatch(r"[A-Z][a-z'’-]+", w) for w in words):
        return authors
    at = next((i for i, ln in enumerate(first.lines[:80]) if ln.text.strip() == authors[0]), None)
    if at is None:
        return authors
    under = " ".join(ln.text for ln in first.lines[at + 1:at + 4])
    users = [set(re.split(r"[._+-]", m.group(1).lower())) for m in re.finditer(r"([\w.+-]+)\s?@", under)]
    if len(users) == 2 and words[1].lower() in users[0] and words[3].lower() in users[1]:
        return [" ".join(words[:2]), " ".join(words[2:])]
    return authors


def _surnames_wrapped(authors: list[str], first: PageText | None) -> list[str]:
    """A name in a block of the byline's grid that wraps its last word onto a line of its
    own ("Gabriel de Souza Pereira" / "Moreira" / "gmoreira@nvidia.com"): the word, set right
    under the name, is the name's when the address's user part under it holds it (a
    university's "Cornell" over "jsmith@cs.cornell.edu" is none)."""
    if first is None:
        return authors
    out = list(authors)
    for i, name in enumerate(authors):
        for at, line in enumerate(first.lines[:80]):
            if line.text.strip() != name:
                continue
            height = max(line.bbox[3] - line.bbox[1], 1.0)
            nxt = first.lines[at + 1] if at + 1 < len(first.lines) else None
            if nxt is None or not 0 <= nxt.bbox[1] - line.bbox[3] < 0.8 * height \
                    or not (line.bbox[0] <= (nxt.bbox[0] + nxt.bbox[2]) / 2 <= line.bbox[2]) \
                    or abs(nxt.size - line.size) > 0.05 * max(line.size, 1.0) \
                    or not re.fullmatch(r"[A-Z][a-z'’-]{2,}", nxt.text.strip()):
                continue
            word = nxt.text.strip()
            users = [m.group(1).lower() for ln in first.lines[at + 2:at + 4] for m in re.finditer(r"([\w.+-]+)@", ln.text)]
            known = {w for a in authors for w in a.split()}
            if any(word.lower() in user for user in users) and not _org(word) and not _place(word) \
                    and word not in known:
                out[i] = f"{name} {word}"
            break
    return out


def _marks_read_as_letters(authors: list[str], first: PageText | None) -> list[str]:
    """Surnames a scan's OCR glued a footnote mark to, read as a letter: "Kishinevskyt" on a
    byline "A. Taubin*, A. Kondratyev* and M. Kishinevskyt" over "*The University of Aizu;
    ]'Strategic CAD Labs", "Kshemkalyanit, Michel Raynalt and Mukesh Singhals" over "t IBM
    Corporation", "$ IRISA", "5 Department". The affiliations the page leads by a mark are
    counted against the marks the byline shows; as many names as marks are missing, no more,
    that show none and end in a letter OCR makes of one, lose it. A byline whose marks all
    show ("Smith*, Jones" over "*University") changes nothing; nor does a born-digital page,
    whose marks are dropped when lost, never read as letters ("Natasha Jaques" over "1
    University of Toronto")."""
    if first is None or len(authors) < 2 or not (first.scan or first.source == "ocr"):
        return authors
    surnames = [a.split()[-1] for a in authors]
    found = [(i, ln) for i, ln in enumerate(first.lines[:60])
             if sum(bool(re.search(r"(?<!\w)" + re.escape(s), ln.text)) for s in surnames) >= min(2, len(surnames))]
    if not found:
        return authors
    at, byline = found[0]
    shown: set[str] = set()
    bare = []
    for k, surname in enumerate(surnames):
        after = re.search(r"(?<!\w)" + re.escape(surname) + r"(\S*(?:\s(?=[" + _FOOTNOTE + r"\d^])\S+)?)", byline.text)
        if after is None:
            return authors
        mark = _SHOWN_MARK.match(after.group(1).lstrip())
        if mark:
            shown.update(set(re.split(r"[,()^]+", mark.group(0))) - {""})
        elif not after.group(1).strip(",;") and len(surname) >= 5 and surname[-1] in _MARK_AS_LETTER \
                and surname[-2].islower():
            bare.append(k)
    led = [m.group(0).strip() for ln in first.lines[at + 1:at + 8] for part in ln.text.split(";")
           if (m := _MARK_LED.match(part)) and (_org(part) or _place(part))]
    # (marks in numbers are printed as numbers, never read as letters: "1 Cyclotron Road" is an
    # address, and a number the scan dropped is no letter)
    if not bare or all(mark.isdigit() for mark in led) or len(bare) > len(led) - len(shown):
        return authors
    return [" ".join([*a.split()[:-1], a.split()[-1][:-1]]) if k in bare else a for k, a in enumerate(authors)]


def _name_x(name: str, first: PageText, claimed: set[tuple[int, int]]) -> float | None:
    """Where the page prints ``name`` from: the left edge of its first words ("Patricia
    Griffiths" when the surname wraps to a line of its own, "Selinger"), as whole words in
    any case, at a place no other name of the list took ("Ann B. Adams", "Ann B. Davis")."""
    words = name.split()
    opening = re.compile(r"(?<!\w)" + re.escape(" ".join(words[:2]) if len(words) > 2 else name) + r"(?!\w)", re.I)
    for number, line in enumerate(first.lines):
        if len(line.boxes) != len(line.text):
            continue
        for m in opening.finditer(line.text):
            if (number, m.start()) not in claimed:
                claimed.add((number, m.start()))
                return line.boxes[m.start()][0]
    return None


def _affiliation_start(words: list[str]) -> int:
    """Where an affiliation begins among a byline's words: its first word naming an
    organisation or a place (0 when none does)."""
    return next((i for i, w in enumerate(words) if _org(w) or _place(w)), 0)


def _all_names(parts: list[str], strip: str) -> list[str] | None:
    """Each non-empty part as a name (its marks taken out), or None if one is none."""
    out = []
    for part in parts:
        words = _MARKS.sub(" ", part).split()
        words = words[:1] + [w for w in words[1:] if w not in ("-", "–", "—") and not re.fullmatch(r"\d{1,2}(,\d{1,2})*", w)]
        # "Tom Leighton -", "Yichen He∗1": a dash or a footnote's number after the name
        while len(words) > 2 and len(words[-1]) == 1 and words[-1].islower():
            # "David Peleg t": a dagger read as a letter; "Maarten Fokkinga y": TeX's symbol
            # font has its dagger where ASCII has y (a particle "y" ends no name)
            words.pop()
        if words and re.fullmatch(r"[A-Z]{3,}[a-z]", words[-1]):
            words[-1] = words[-1][:-1]  # "J. C. R. LICKLIDERt": a dagger read as a letter on a surname in capitals
        if words and re.fullmatch(r"[A-Z][a-z]{2,}[A-Z]", words[-1]):
            words[-1] = words[-1][:-1]  # "Yiming ZhangB": Springer's envelope read as a letter after a surname
        part = " ".join(words).strip(strip)
        if not part:
            continue
        if re.search(r"(?:^|[\s.])[^\W\d_]$", part) and " ".join(words).endswith("."):
            part += "."  # "Суворова А.В.": the initial's own dot, not a sentence's
        name = _name(part)
        if name is None:
            return None
        out.append(name)
    if out and all(any(w.lower() in _SUBJECT_WORDS for w in name.split()) and not re.search(r"\b[A-Z]\.", name)
                   for name in out):
        return None
    return out


def _names_before_affiliations(text: str) -> list[str] | None:
    """"John Hughes, Institutionen för Datavetenskap, …"; "Chien-Chin Huang, New York
    University; Qi Chen, Peking University; Zhaoguo Wang and Russell Power, …": in each
    group (split at ";") the names before the first affiliation."""
    out: list[str] = []
    for group in text.split(";"):
        pieces = [p.strip() for p in group.split(",") if p.strip()]
        # the affiliation: an organisation, an e-mail, or a company's one word ending a group
        # of names ("Jim Stabile, VMware"; not "Tom Lee, Apple, Jane Doe, …", read no further)
        # (or a job title after a name: "Peter Ferrie, Senior Anti-Virus Researcher, Microsoft …")
        cut = next((i for i, p in enumerate(pieces) if _org(p) or _EMAIL.search(p) or i > 0 and _job_title(p)
                    or 0 < i == len(pieces) - 1 and len(p.split()) == 1 and p[:1].isupper()), len(pieces))
        if cut == 1 < len(pieces) and _LEGAL_FORM.fullmatch(pieces[1]):
            continue  # "Red Hat, Inc.": a company's name before its legal form, no person
        if cut == 0 and pieces and (lead := _SURNAME_FIRST.match(pieces[0])) is not None \
                and _org(pieces[0][lead.end():]):
            out.append(_given_first(lead.group(0)))  # "Баклановский М.В. Университет ИТМО": no comma after the name
            continue
        if any(_place(p) for p in pieces[:cut]):
            return None  # "Mountain View, CA, Google": a place first
        for piece in pieces[:cut]:
            names = _all_names(_SPLIT.split(re.sub(r"^and\s+", "", piece)), " .")
            if names is None:
                return None
            out.extend(names)
    return out or None


# Names in capitals before a comma and mixed-case words after: "RALF JUNG, ROBBERT KREBBERS, Delft, Netherlands"
_CAPITALS_THEN_WHERE = re.compile(r"((?:[A-Z][A-Z.'’-]+(?:\s+[A-Z][A-Z.'’-]+)+)(?:,\s+[A-Z][A-Z.'’-]+(?:\s+[A-Z][A-Z.'’-]+)+)*),\s+(.*[a-z].*)")
# A heading's or a note's words in capitals, never a name's: "INVITED TALK", "COURSE NOTES"
_HEADING_WORDS = re.compile(r"\b(?:TALK|NOTES?|REPORT|ADDRESS|KEYNOTE|INVITED|PAPER|TUTORIAL|LECTURE|ABSTRACT|"
                            r"DRAFT|CHAPTER|WORKSHOP|SESSION|PANEL|POSITION|SUMMARY|PROCEEDINGS|PREFACE)\b")
# A country, the last piece of an affiliation's line
_COUNTRY = re.compile(r"(?:the\s+)?(?:" + _COUNTRIES + "|" + _COUNTRIES_AFTER_CITY
                      + r"|uk|czech republic|czechia|united states|united kingdom|new zealand|south africa|hong kong)\.?", re.I)
# An affiliation's unit after a spaced dash: "… – Windows Live Services Platform"
_UNIT = re.compile(r"\b(?:services|platform|division|group|labs?|team)\b", re.I)


def _own_address_dropped(text: str) -> str:
    """"John C. Mitchell jcm@cs.stanford.edu", "Yulin Yang - yuyang@udel.edu": a name and its
    own address, no affiliation between, is the name — the address's user part holds the
    surname or the initials, or opens with the given name
    (not "Patrick O’Neil UMasslBoston poneil@cs.umb.edu", a scan's garbled affiliation)."""
    m = re.fullmatch(r"(.*[^\W\d_])\s+(?:([-–—])\s+)?([\w.+-]+)@[\w-]+(?:\.[\w-]+)+", text)
    if not m or "@" in m.group(1):
        return text
    words = [re.sub(r"[^a-z]", "", w.lower()) for w in m.group(1).split()]
    user = re.sub(r"[^a-z]", "", m.group(3).lower())
    # (or its given name, "James Maley - james.m.laley2.civ@mail.mil", a surname mistyped: only
    # after a dash, over a name of two or three words and no other piece, the given name the
    # user part's first piece; not "Alice Zheng - Turi - alice@turi.com", "Help Desk - help@…")
    given = m.group(2) is not None and not re.search(r"\s[-–—]\s", m.group(1)) and 2 <= len(words) <= 3 \
        and len(words[0]) >= 4 and re.match(re.escape(words[0]) + r"[._-]", m.group(3).lower()) is not None
    if words and words[-1] and (words[-1] in user or user == "".join(w[:1] for w in words) or given):
        return m.group(1)
    return text


# A name in Cyrillic printed surname first, its initials after ("Черняев А. В.", "Суворова А.В.")
# (an initial ends at its dot or a space: "Шатов В. М студент", not "Иван П|етров")
_SURNAME_FIRST = re.compile(r"([А-ЯЁ][а-яё]+(?:-[А-ЯЁ][а-яё]+)?)\s+((?:[А-ЯЁ](?:\.\s?|\s+|$)){1,2})")


def _given_first(name: str) -> str:
    """A Cyrillic name printed surname first, as Russian bylines print it, written initials
    first ("А. В. Черняев"), so its surname is its last word, as every other name's is (a
    name in Latin letters ending in an initial stays: "Avila Clemenshia P." is given first)."""
    m = _SURNAME_FIRST.fullmatch(name.strip())
    if m is None:
        return name
    initials = " ".join(f"{c}." for c in re.findall(r"[А-ЯЁ]", m.group(2)))
    return f"{initials} {m.group(1)}"


def _name(text: str) -> str | None:
    text = _HONORIFIC.sub("", text)  # "Prof. Ketan Shah"
    words = text.replace("(", "").replace(")", "").split()
    if any(w.lower().strip(".:") in _NOT_NAME for w in words) or words and len(words[0]) > 1 and "".join(words).lower() in _NOT_NAME:
        return None  # (or such a word kerned apart: "DRAF T")
    if any(w.lower() in _JOB_SURNAME and (i == 0 or words[i - 1].lower() in _JOB_RANK)
           for i, w in enumerate(words)):
        return None
    if not 2 <= len([w for w in words if w not in _PARTICLES]) <= 4 or not all(_NAME_WORD.match(w) and (w[0].isupper() or w in _PARTICLES)
                                           for w in words):
        return None
    # a particle ends no name ("…, Diego de" wrapped); capitalised, it is the surname ("Quoc V. Le",
    # "Tathagata Das", "Nan Du")
    if all(w.lower() in _PARTICLES for w in words) or words[-1] in _PARTICLES:
        return None
    if sum(1 for w in words if len(w.rstrip(".")) > 1 and w.lower() not in _PARTICLES) < 1:
        return None
    if len(words) >= 3 and len({w.lower() for w in words}) == 1:
        # "OpenAI OpenAI OpenAI OpenAI": a grid's row of one affiliation, under each name
        # ("Tao Tao", "Yang Yang" are people)
        return None
    name = re.sub(r"(?<= [JjSs][Rr])$", ".", " ".join(text.split()))  # "Steele Jr." (its dot kept)
    if name.isupper():  # "P. M. MELLIAR-SMITH": each part of a double name capitalised,
        # and the name after an apostrophe's one letter ("PATRICK O’NEIL", "D’ANTONI")
        name = " ".join("-".join(re.sub(r"^([A-Z][’'])([a-z])", lambda m: m.group(1) + m.group(2).upper(),
                                        re.sub(r"(?<=\.)[^\W\d_]", lambda m: m.group(0).upper(), p[:1].upper() + p[1:].lower())) for p in w.split("-")) for w in name.split())
    return _given_first(name)


# "ACM Reference Format:", "PVLDB Reference Format:": the publisher's citation of the paper,
# printed on its first page
_CITED_AS = re.compile(r"\breference\s+format\s*:\s*", re.I)
# where that citation ends: its DOI or link, the body's first section, the notices under it
_CITED_AS_END = re.compile(r"\bdoi\b|https?://|^\s*(?:\d+\.?\s*)?introduction\b|^\s*permission to\b|"
                           r"^\s*this work is licensed|^\s*pvldb artifact|^\s*(?:keywords|ccs concepts)\b", re.I)


# a template's sample values left in the citation (acmart's "Conference’17", "Woodstock",
# "acronym ’XX"; vldb.cls's "XXX-XXX"): its year is the template's, not the paper's
_TEMPLATE_VALUES = re.compile(r"XXX|Conference[’']\d\d|Woodstock|acronym\s*[’']XX")
# a date a citation gives its venue: "(November 2017)", "August 6–10, 2023", "Oct. 2020"
_VENUE_DATE = re.compile(r"\b(?:Jan(?:uary)?|Feb(?:ruary)?|Mar(?:ch)?|Apr(?:il)?|May|June?|July?|Aug(?:ust)?|"
                         r"Sep(?:t(?:ember)?)?|Oct(?:ober)?|Nov(?:ember)?|Dec(?:ember)?)\.?\s+"
                         r"(?:\d{1,2}(?:\s*[-–]\s*\d{1,2})?,?\s+)?" + _Y + r"\b")
# a full stop that ends no sentence of a citation: "Column-Stores vs. Row-Stores", "Inc."
_NO_SENTENCE_END = re.compile(r"\b(?:vs|v|etc|Inc|St|Dr|Vol)$")


@dataclass
class _Citation:
    names: list[str]
    year: int | None
    made: bool  # made by the template from the paper's own list (ACM's; PVLDB's since 2020)


def _citation_text(first: PageText) -> tuple[str, str] | None:
    """The citation under "ACM Reference Format:" / "PVLDB Reference Format:" as one line of
    text, up to its DOI or link or the body's first section, and the heading's line."""
    lines = first.lines
    at = next((i for i, ln in enumerate(lines) if _CITED_AS.search(ln.text)), None)
    if at is None:
        return None
    parts = [_CITED_AS.split(lines[at].text, maxsplit=1)[-1]]
    for line in lines[at + 1:at + 8]:
        if _CITED_AS_END.search(line.text):
            break
        parts.append(line.text)
    text = ""
    for part in (p.strip() for p in parts if p.strip()):
        text += part if text.endswith("-") else f" {part}"  # "Kfir Lev-" / "Ari"
    return " ".join(text.split()), lines[at].text


def _self_citation(first: PageText | None, title: str | None = None) -> _Citation | None:
    """The paper's citation of itself, printed on its first page under "ACM Reference
    Format:" or "PVLDB Reference Format:": the publisher's list of all its authors in order,
    and its year, whatever the byline's layout (a grid, names wrapped round affiliations,
    a name set apart with its own affiliation). The names are what comes before the year
    ("Gil Einziger, Roy Friedman, and Ben Manes. 2017. TinyLFU: …") or before the title
    ("Yoshinori Matsunobu, Siying Dong, Herman Lee. MyRocks: … PVLDB, 13(12): 3217 - 3230,
    2020.": where the page's ``title`` begins, else at the full stop before the title's
    sentence, the last before "PVLDB" — a short title, "JoinBoost.", and "Andrew Y. Ng." alike).
    No names when they are cut short ("Armbrust et al.") or filed by surname ("Lee, J., Kim,
    H., and Vuduc, R. 2012."); no year when the citation still holds a template's sample
    values or names its venue's date in another year; None when the page prints none."""
    found = _citation_text(first) if first is not None else None
    if found is None:
        return None
    text, heading = found
    dated = re.match(r"(.+?)\.\s+" + _Y + r"\.(?:\s|$)", text)  # (a column may end on "… Warfield. 2021.")
    year: int | None
    guessed = False  # the names' end found by the full stops alone
    if dated:
        listed, year = dated.group(1), int(dated.group(2))
    else:
        venue = re.search(r"\.\s+PVLDB\b", text)
        stops = [m for m in re.finditer(r"\.\s", text) if venue is None or m.start() < venue.start()]
        own = _key(title or "")[:20]
        stop = next((m for m in stops if own and _key(text[m.end():]).startswith(own)), None)
        if stop is None and venue is not None:
            stop = next((m for m in reversed(stops) if not _NO_SENTENCE_END.search(text[:m.start()])), None)
            guessed = True
        if stop is None:
            return None
        listed = text[:stop.start()]
        years = _ANY_YEAR.findall(text[stop.end():])
        year = int(years[-1]) if years else None
    # a sample "2018." before its venue's "(KDD ’23), August 6–10, 2023"
    venue_years = [int(m.group(1)) for m in _VENUE_DATE.finditer(text[len(listed):])]
    if _TEMPLATE_VALUES.search(text) or dated and any(y != year for y in venue_years):
        year = None
    names = None if re.search(r"\bet\s+al\b", listed, re.I) else _names(listed)
    if not names or any(len(n.split()) < 2 or guessed and len(n.split()[-1].rstrip(".")) < 2 for n in names):
        names = []  # (its year stands; a name ending in an initial where the full stops alone
        # ended the names is cut short: "John Q", not "Shiva Shankar P")
    # a list the template made from the paper's own (ACM's; PVLDB's since 2020, which prints
    # "doi:10.14778/…" and "PVLDB Artifact Availability:"), not one typed by hand (Procella's,
    # on the 2019 template: "DOI: https://doi.org/10.14778/…")
    page = "\n".join(ln.text for ln in first.lines) if first is not None else ""
    made = bool(re.search(r"\bACM\s+reference", heading, re.I)
                or re.search(r"\bdoi:10\.14778/|PVLDB Artifact Availability", page))
    return _Citation(names=names, year=year, made=made) if names or year else None


def _as_cited(authors: list[str], cited: _Citation, first: PageText) -> list[str]:
    """The byline's names as the paper's own citation lists them, when it lists every name
    the rules read and more, or the same in another order and the template made it from the
    paper's list (a hand-typed PVLDB list may differ from the byline, leave a name out), and
    every surname cited is printed on the page a second time, as a word (its byline): a
    name the rules missed joins in its place; the names the rules read keep their spelling
    (two people of one surname told apart by their given name's initial). A name wrapped onto
    two lines of the byline and read as two people ("Deepak Mukunthu" / "Iyappan Babu") is
    one where the citation lists it whole."""
    whole = {_key(c) for c in cited.names}
    joined: list[str] = []
    for name in authors:
        if joined and _key(joined[-1]) not in whole and _key(joined[-1] + name) in whole:
            joined[-1] = f"{joined[-1]} {name}"
        else:
            joined.append(name)
    authors = joined
    mine = [_key(_surname(a)) for a in authors]
    theirs = [_key(_surname(c)) for c in cited.names]
    if not theirs or mine == theirs or Counter(mine) - Counter(theirs):
        return authors  # (a name the rules read that the citation lacks: the byline stands)
    if Counter(mine) == Counter(theirs) and not cited.made:
        return authors
    words = Counter(_key(w) for w in re.findall(r"[^\W\d_][\w'’-]*", " ".join(ln.text for ln in first.lines)))
    if not all(words[_key(c.split()[-1])] >= 2 for c in cited.names):
        return authors
    left = list(authors)

    def spelled(name: str) -> str:
        same = [a for a in left if _key(_surname(a)) == _key(_surname(name))]
        match = next((a for a in same if _key(a)[:1] == _key(name)[:1]), same[0] if same else None)
        if match is None:
            return name
        left.remove(match)
        return match

    return [spelled(c) for c in cited.names]


def _agreeing_authors(info: dict[str, str], first: PageText | None) -> list[str]:
    """The PDF's /Author, when each name's surname is printed on the first page."""
    author = (info.get("Author") or "").strip()
    if not author or _JUNK_TITLE.search(author) or first is None:
        return []
    inverted = re.fullmatch(r"\s*([^\W\d_][\w'’-]+),\s*((?:[^\W\d_][\w'’-]*\.?\s*){1,3})", author)
    if inverted:  # "Casimir, H.B.G.": surname first
        author = f"{inverted.group(2).strip()} {inverted.group(1)}"
    names = [" ".join(n.split()) for n in re.split(r";|,|\band\b|&", author) if n.strip()]
    page = _key(" ".join(ln.text for ln in first.lines[:40]))
    # (an agency's name is no person's: "Cybersecurity and Infrastructure Security Agency (CISA)";
    # Asa Ben-Hur and Neal Master are people whatever `_org` says of "asa" and "master")
    names = [n for n in names if len(n.split()) >= 2 and not _JUNK_AUTHOR.match(n)
             and not (re.search(r"\bagency\b", n, re.I) or len(n.split()) >= 3 and _org(n))]
    if names and all(_key(n.split()[-1]) in page for n in names):
        return names
    return []


# --- year -------------------------------------------------------------------------------

def _unspaced(text: str) -> str:
    """A line set letter-spaced, every character apart ("O C T O B E R 1 9 8 9"), closed up
    into its words ("OCTOBER 1989"); any other line as it is."""
    if len(text.split()) < 6 or any(len(t) > 1 for t in text.split()):
        return text
    closed = " ".join(w.replace(" ", "") for w in re.split(r" {2,}", text))  # wider spaces part words
    return re.sub(r"(?<=[^\W\d_])(?=\d)|(?<=\d)(?=[^\W\d_])", " ", closed)


def _under_byline(line: Line, lines: list[Line]) -> bool:
    """``line`` sits right under an author's name or e-mail (within two of its heights, over
    the same column), or on a cover of a few lines under an affiliation: a thesis's title
    page ends "Tölvunarfræðideild" / "Háskóli Íslands" / "2010"."""
    height = max(line.bbox[3] - line.bbox[1], 1.0)
    above = [ln for ln in lines if 0 <= line.bbox[1] - ln.bbox[3] < 2 * height
             and ln.bbox[0] < line.bbox[2] and line.bbox[0] < ln.bbox[2]]
    if not above:
        return False
    over = max(above, key=lambda ln: ln.bbox[3]).text
    return bool(_EMAIL.search(over)) or _names(over) is not None or len(lines) <= 15 and _org(over)


def _heading_under_prose(line: Line, lines: list[Line]) -> bool:
    """A line in capitals under three lines of prose that follow a byline over it (a section's
    heading under the abstract: "ARTIFICIAL REALITIES"), or one that is a name under prose (an
    epigraph's "A. PERLIS"); not a title under a reprint's note or an epigraph alone."""
    above = [ln for ln in lines if ln.bbox[3] <= line.bbox[1]]
    byline = min((ln.bbox[3] for ln in above if _line_names(ln)), default=None)
    if byline is None and _names(line.text.strip()) is None:
        return False
    return sum(ln.bbox[1] >= (byline or 0.0) and _prose_cased(ln.text) for ln in above) >= 3


def _journal_foot(text: str, y: float, size: float, body: float, first: PageText) -> bool:
    """A journal's line at the page's very foot, set small and opening on its name, volume
    and year ("Complex Systems, 15 (2004) 1–40; © 2004 Complex Systems Publications, Inc."),
    not a note that cites one ("Supported by …; see Physica D, 10 (1984) 1-35")."""
    return y > 0.9 * first.height and size < 0.92 * body \
        and re.match(r"(?i:(?!(?:cited|see|in|from|after|reprinted|adapted|based|quoted|cf|ibid)\b))[A-Z][^\d,;:]{2,60},"
                     r"\s?\d{1,3}\s?\(" + _Y + r"\)", text) is not None


def page_year(first: PageText | None, title: list[Line] | None = None) -> int | None:
    """The year the first page prints as a copyright, a venue line, a date or an arXiv
    stamp, or None. Years inside the title, download and print stamps, prose and the
    dates of earlier versions do not count; where lines of one kind disagree, the most
    frequent year wins, then the latest."""
    if first is None:
        return None
    skip = {id(ln) for ln in title or []}
    tiers: dict[float, list[int]] = {}
    stamp = _DATE.search(first.margin or "") if first.margin and _ARXIV.search(first.margin) else None
    if stamp:
        tiers.setdefault(0, []).append(_year_of(stamp))
    elif first.margin and len(first.margin.split()) <= 8 and (dated := _DATE.search(first.margin)) is not None \
            and not _NOT_A_DATE.search(first.margin) \
            and not re.search(r"download|authori[sz]ed|licen[cs]ed|accessed|\b[a-z]+-\d{6,}\b|\bversion\s+\d", first.margin, re.I) \
            and len(_DATE.findall(first.margin)) == 1:
        # a magazine's issue up the page's side: "interactions July + August 2012" (not a rotated
        # figure's caption: "… commits since June 2005.")
        tiers.setdefault(1.5, []).append(_year_of(dated))
    head = max([0.45 * first.height, *(ln.bbox[3] + 0.2 * first.height for ln in title or [])])
    # a journal page that opens with the end of the article before (CACM's), its references'
    # "Intell. 8, 1(1977), 99-118." shaped like a masthead: no line at its head is one
    own_head = sum(bool(_REFERENCE_ENTRY.match(ln.text.strip())) for ln in first.lines
                   if ln.bbox[1] < 0.3 * first.height) < 2
    for line in first.lines:
        if id(line) in skip:
            continue
        text = _unspaced(line.text.strip())
        masthead = (_MASTHEAD.match(text) or _CAPS_MASTHEAD.match(text)
                    or (_PRESS_HEAD.match(text) if _PRESS_MARK.search(text) else None)
                    # (a running head's cell: "线段跳表——跳表的一个拓展   2009 年冬令营论文 李骥扬")
                    or next((m for cell in line.cells if (m := _CN_SERIES_HEAD.match(cell.strip()))), None)) \
            if line.bbox[1] < 0.2 * first.height and own_head else None
        masthead = masthead or (_ISSUE_LINE.match(text) if line.bbox[1] < 0.3 * first.height else None)
        masthead = masthead or (_YEAR_VOLUME_PAGES.match(text) if line.bbox[1] < 0.2 * first.height and own_head else None)
        masthead = masthead or (_NAMED_ISSUE.match(text) if line.bbox[1] < 0.15 * first.height and own_head
                                or line.bbox[1] > 0.85 * first.height and _foot_issue(line, first) else None)
        if masthead:  # "Theoretical Computer Science 321 (2004) 5–12": the volume's year, not the © 2003
            tiers.setdefault(0.5, []).append(_year_of(masthead))
        if _THIS_PAPER_APPEARED.match(text) and _ANY_YEAR.search(text) and len(text.split()) <= 20:
            # "This paper appeared in Operating Systems Review, April 1991." set as the abstract's
            # last line, in its type: the note on a line of its own, its sentence opening there
            # (not "… a paper that originally" / "appeared in Proceedings, STOC 1996": an earlier
            # version's); a venue's year, under a copyright
            tiers.setdefault(2, []).extend(int(y) for y in _ANY_YEAR.findall(_PAGES.sub(" ", text))[-1:])
        issued = _CURRENT_VERSION.search(text)
        if issued:  # IEEE's "date of current version 4 January 2024": its issue, over the date online
            tiers.setdefault(0.5, []).append(int(issued.group(1)))
        if len(line.cells) > 1 and line.bbox[1] < head:
            # "Working Paper 88        November 1974": a date alone in a cell of its own
            tiers.setdefault(1.5, []).extend(int(m.group(1)) for c in line.cells if (m := _CELL_DATE.fullmatch(c.strip())))
        numbered = _REPORT_YEAR.match(text) if line.bbox[1] < head else None
        if numbered:  # "MSR-TR-2007-33" alone under a title: the report's number holds its year
            tiers.setdefault(1.5, []).append(int(numbered.group(1)))
        byline_year = _dated_byline(text) if line.bbox[1] < head else None
        if byline_year:
            tiers.setdefault(1.5, []).append(byline_year)  # "By Vitalik Buterin (2014)."
        if line.bbox[1] >= head and re.fullmatch(r"(?:19|20)\d\d", text) and _under_byline(line, first.lines):
            # "Chuck Moore" / "chipchuck@colorforth.com" / "1991" low on a cover: the byline's date
            tiers.setdefault(2.5, []).append(int(text))  # under a venue's year, over a date in the prose
        # (a date in numbers right under the title's lines only: "6/22/2001"; not a figure's note)
        under_title = bool(title) and 0 <= line.bbox[1] - max(ln.bbox[3] for ln in title or []) < 0.1 * first.height
        short = _SHORT_NUMERIC_DATE.fullmatch(text) if under_title else None
        if short:
            tiers.setdefault(1.5, []).append(1900 + int(short.group(1)))  # (a typescript's: "3/3/47" is 1947)
        date = (_DATE.search(text) or (_NUMERIC_DATE.fullmatch(text) if under_title else None)) \
            if line.bbox[1] < head else None
        if date and not _NOT_A_DATE.search(text) and \
                not re.search(r"[^\W\d_]{2,}", _DATE_LABEL.sub("", text[:date.start()] + " " + text[date.end():])):
            # a date printed alone on its line in the page's head ("11 Mar 2003", "revised:
            # 24 February 2012"): the date of this paper, over a venue's year in a note
            # (a revision's date, "Revised December 2012", over a copyright of the first one)
            revised = re.search(r"revised|updated|version", text, re.I)
            tiers.setdefault(0.8 if revised else 1.5, []).append(_year_of(date))
    body = _body_size(first.lines)
    own = _key(_join_title(title or []) or "")
    for text, size, y in _paragraphs([ln for ln in first.lines if id(ln) not in skip]):
        review = _REVIEW_NOTE.match(text)
        if review:
            text = text[review.end():]
        web = _WEB_COPY_DATE.search(text)
        if web:  # a portal's date of its web copy, "Published online: 09 March 2009", on a 1996
            tiers.setdefault(4, []).append(_year_of(web))  # paper's cover: its year only when nothing else is
            text = f"{text[:web.start()]} {text[web.end():]}"
        labelled = _LABELLED_DATE.search(text)  # "Date: 2016.05.11", "Publication date: 2014"
        if labelled:
            # (a revision's, "Revision date: March 18, 2018" in a footnote, is this version's:
            # over the first version's date under the title, "MAY 31, 2016")
            revision = re.match(r"(?:revision|version)\s+date|date of this version", labelled.group(0), re.I) \
                and re.match(r"[\W\d]{0,4}(?:revision|version|date of this version)", text, re.I) \
                and (size < 0.95 * body or y < 0.15 * first.height or y > 0.8 * first.height)
            tiers.setdefault(0.8 if revision else 2, []).append(int(labelled.group(1)))
        # (a note: set small, or in the page's head or foot, not the body's prose, "First
        # presented by Lamport in 1989, …")
        # (or a proceedings' cover's, wherever it stands: "The following paper was originally
        # published in the Proceedings of the USENIX 1997 Annual Technical Conference")
        first_out = _first_appeared(text) if len(text.split()) <= 60 and (
            size < 0.95 * body or y < 0.15 * first.height or _FOLLOWING.match(text)) else None
        if first_out is not None:
            tiers.setdefault(first_out[0], []).extend(first_out[1])
        if _NOT_A_DATE.search(text):
            continue
        words = _word_total(text)
        issued = _REPORT_ISSUED.match(text) if size < 0.95 * body or y > 0.8 * first.height else None
        if issued:
            # a report's issue line in small type or the page's foot: the date it was issued, over
            # a draft's date under the byline (1.5), under a copyright or a masthead
            tiers.setdefault(1.4, []).append(int(issued.group(1)))
        if _CITATION_NOTE.match(text):
            # "The full citation of this article is: "…" in D. A. Hardy and A. C. Renfrew, eds.,
            # … Santorini, Greece, 3-9 September 1989. … (London: The Thera Foundation 1990) 13-18.":
            # the note's paragraph, the last year its publication's
            tiers.setdefault(0.9, []).extend(_note_years(text)[-1:])
        if _PUBLISHED_IN.match(text):
            # "Published in Computer Languages 19(1), 1–12 (1993)" on a preprint that prints
            # the authors' "© … 1992": the year it appeared in, as a journal's volume year
            # is taken over its copyright
            # (the note's own year, not a copyright's or a review's run on into its paragraph)
            note = re.split(r"©|\(c\)|\b(?:copyright|reprinted|revised|received|accepted)\b", text, maxsplit=1, flags=re.I)[0]
            tiers.setdefault(0.9, []).extend(int(y) for y in _ANY_YEAR.findall(_PAGES.sub(" ", note))[-1:])
        if not _COPYRIGHT.search(text):
            # (under a venue's line: a scan that garbles the "©" may garble the code's digits too,
            # "0 1933 ACM 0734-2071/33/0200-0051$01.50" for 1988)
            tiers.setdefault(2.5, []).extend(_century(int(m.group(1))) for m in _PRICE_CODE.finditer(text))
        for match in _COPYRIGHT.finditer(text):
            earlier = _EARLIER.search(text, 0, match.start())
            if earlier and not re.search(r"[.;]\s", text[earlier.end():match.start()]):
                continue  # the other version's ©, in the note's own sentence
            # "Copyright © 2008-2013 The Apache Software Foundation": this version's is the last
            last = re.match(r"\s*[-–—]\s*" + _Y + r"\b", text[match.end():])
            # (a running foot's, "Copyright 2002 Hewlett-Packard Co   Page 1 of 4", is its
            # template's: under the date a note prints under its title, "6/22/2001")
            tiers.setdefault(1.6 if _PAGE_OF.search(text) else 1, []).append(int((last or match).group(1)))
        # "… attribute the work to the author and CIDR 2007.": an acronym and a year in a
        # note set smaller than the body name a venue (a heading "LADIS 2008 Topic" does not)
        if len(own) >= 15 and own in _key(text) and _CITED.search(text):
            # how to cite this paper, printed on it: "Lee, J. J. & Hammer, J. (2011). <title>. …"
            tiers.setdefault(1, []).extend(int(y) for y in _ANY_YEAR.findall(text)[:1])
        # a venue in prose of the body ("At PODC 2000, Brewer …") names another event: a
        # venue line is a banner in the page's head or foot, a note set smaller than the
        # body, or says it is one ("Appears in …", "This report is submitted …")
        if words <= 40 and (y < head or y > 0.8 * first.height or size < 0.95 * body or _VENUE_NOTE.match(text)) and \
                (_VENUE.search(text)
                 # a book's publisher over its chapter, in the page's head ("North Holland Publishing
                 # Company, 1976"; a footnote citing a book is none)
                 or y < 0.15 * first.height and _PUBLISHER.search(text)
                 or _VANCOUVER.search(text) and not re.match(r"\W*(?:\[?\d+[.)\]]\s|see\b|cf\.)", text, re.I)
                 or _VOLUME_YEAR.search(text) and (y < head or _VENUE_NOTE.match(text) or _journal_foot(text, y, size, body, first))
                 or size < 0.92 * body and _ACRONYM_YEAR.search(text)
                 or (y < 0.1 * first.height or y > 0.9 * first.height) and _SHORT_YEAR.search(text)) \
                and not _CITED.search(text):
            # "…, pages 1650–1669": a page range of the venue line is no year
            years = [int(y) for y in _ANY_YEAR.findall(_PAGES.sub(" ", _ISSN.sub(" ", text)))]
            # (a short year later than a year its own line prints is a volume or a page: "ISCA 42, June 2015")
            latest = max([int(y) for y in _ANY_YEAR.findall(text)], default=2049)
            years += [y for m in _SHORT_YEAR.finditer(text) if (y := _century(_year_of(m))) <= latest]
            tiers.setdefault(2, []).extend(years)
        if words <= 25 and not _CITED.search(text):
            # (not a date a sentence is about: "the results as of October 1988:", "since May 1990")
            # ("Draft as of September 4, 2018" is this version's)
            # (the end of a period is its date: "January through December 1996")
            tiers.setdefault(3, []).extend(_year_of(m) for m in _DATE.finditer(text)
                                           if not _PROSE_DATE.search(text, 0, m.start()) or _VERSION_AS_OF.match(text)
                                           or _RANGE_END.search(text, 0, m.start()))
    for tier in sorted(tiers):
        years = [y for y in tiers[tier] if 1600 <= y <= 2049]
        if years:
            counts = Counter(years)
            return max(counts, key=lambda y: (counts[y], y))
    return None


# a journal's date of the web copy of a paper, beside the issue's line: "Published online: 09 March
# 2009", "Available online 12 May 2005"
_WEB_COPY_DATE = re.compile(r"\b(?:(?:first )?published online|available online|online publication date)\s*:?\s*(?:on\s+)?"
                            r"(?:\d{1,2}(?:st|nd|rd|th)?\s+)?" + _MONTH + r"\.?\s+(?:\d{1,2},?\s+)?" + _Y + r"\b", re.I)
# a proceedings cover's note over the paper it is bound before: "The following paper was originally
# published in the Proceedings of …"
_FOLLOWING = re.compile(r"the following (?:paper|article) was\b", re.I)
# "Originally appeared in Proc. of the Winter 1994 USENIX Conf., …", "This paper first appeared
# in Proc. 5th Princeton Conf. …, 1971": a reprint's note naming where the work was first
# published (not "First published online …", a journal's date of its web copy)
_FIRST_APPEARED = re.compile(r"^[\W_]*(?:\d\s+)?(?:(?:this|the following) (?:paper|article|work|report|note) (?:was |has been )?)?"
                             r"(?:originally|first) (?P<verb>appeared|published|presented)\b(?!\s+online)(?P<form>,?\s+in\s+an?\s+"
                             r"(?:\w+\s+){0,2}(?:form|version)\b|\s+(?:in\s+)?(?:an?\s+)?(?:preliminary|abbreviated|"
                             r"condensed|extended|earlier|early|shorter|different|abridged|partial)\b)?", re.I)


def _first_appeared(text: str) -> tuple[float, list[int]] | None:
    """The year a reprint's note says the work first appeared in, and its tier: the work's
    year over the reprint's © and its reprints' venues ("It was reprinted in … (Jan. 1974)"),
    under a masthead or a date of this version; a note that names another form ("in a
    different form", "as an extended abstract") or a talk ("originally presented at …", a
    journal version's conference) only where the page prints no other year. A journal's
    date of its web copy and a book's first edition ("First published 2000 by …") are none,
    and a series', a report's or an ISSN's number no year."""
    match = _FIRST_APPEARED.match(text)
    if match is None:
        return None
    tail = text[match.end():match.end() + 120]
    if _WEB_COPY.match(tail) or _BARE_DATE.match(tail) and not re.search(r"\b(?:in|as)\s+(?:the\s+)?[A-Z]", tail):
        return None
    rest = _PAGES.sub(" ", _ISSN.sub(" ", text[match.end():]))
    sentence = " ".join(rest.split()[:30])
    sentence = re.sub(r"\b(?:LNCS|LNAI|LNM|lecture notes in [\w ]{3,40}?|vol(?:ume)?\.?|no\.|number|report|memo|TR|#)\s*#?\d{4}\b", " ", sentence, flags=re.I)
    years = _ANY_YEAR.findall(sentence)
    if not years:
        return None
    other = match.group("form") or match.group("verb").lower() == "presented" or _OTHER_FORM.search(sentence)
    return (3.5 if other else 0.95), [int(years[0])]


# a journal's date of its web copy, not a venue: "First published: 12 May 2019", "… on: 12 March 2010
# (iFirst)", "… as an Advance Article on the web …", "… ahead of print", "… electronically"
_WEB_COPY = re.compile(r"\s*(?:on\b|on-line|as an advance|ahead of print|electronically|:\s*(?:\d|" + _MONTH + r"))", re.I)
# a bare date after the verb ("… 3 October 2008"), a web copy's unless a venue follows it ("… 1974 in CACM")
_BARE_DATE = re.compile(r"\s*(?:(?:\d{1,2}(?:st|nd|rd|th)?\s+)?" + _MONTH + r"\b|\d)", re.I)
# another form named anywhere in the note's sentence: "… as an extended abstract in …", "… in slightly
# different form …", "…; this is a revised and extended version"
_OTHER_FORM = re.compile(r"\b(?:extended abstract|preliminary|abridged|abbreviated|condensed|different form|"
                         r"revised|extended version|earlier version|shorter version)\b", re.I)


# IEEE Xplore's /Subject: "IEEE Network;2025;39;1;10.1109/MNET.2024.3434419", the venue and
# the year of its issue
_SUBJECT_YEAR = re.compile(r"^[^;]{4,200};\s*" + _Y + r"\s*;")


def _subject_year(info: dict[str, str], first: PageText | None) -> int | None:
    """The issue's year a publisher wrote into the PDF's /Subject, when the first page
    prints it too (in its lines or its margin): a volume's year over the © of the
    version first published online ("©2024 IEEE" on a paper of the January 2025 issue)."""
    match = _SUBJECT_YEAR.match(info.get("Subject") or "")
    if not match or first is None:
        return None
    printed = " ".join([first.margin or "", *(ln.text for ln in first.lines)])
    return int(match.group(1)) if re.search(r"(?<!\d)" + match.group(1) + r"(?!\d)", printed) else None


# the words a sentence puts before a date it is about, not its own: "as of October 1988"
_VERSION_AS_OF = re.compile(r"\W*(?:[\w-]+\s+){0,3}(?:draft|version|revised|revision|updated|current|printed|preprint|status|effective)\b"
                            r"[\w\s.,-]{0,20}?\bas of\b", re.I)
_RANGE_END = re.compile(r"\b(?:" + _MONTH + r"|" + _SEASON + r"|\d{4})\W*\s+(?:\d{1,2},?\s+)?(?:through|until|till|to)\s+$", re.I)
_PROSE_DATE = re.compile(r"\b(?:as of|since|until|till|before|after|during|through)\s+(?:the\s+)?(?:end of\s+|early\s+|late\s+|mid-?)?$", re.I)


def _note_years(text: str) -> list[int]:
    """The years a note of where a work appeared prints, not its pages or its volume's numbers:
    "Applied Energy, 112, 1801-1812", "Nat Commun. 2016;7:1988" (the 2016 only)."""
    text = _PAGES.sub(" ", text)
    return [int(m.group(1)) for m in _ANY_YEAR.finditer(text)
            if not re.search(r"(?:\d\s*[-–]\s*|[:;]\s*)$", text[:m.start()]) and not re.match(r"\s*[-–]\s*\d", text[m.end():])]


def _year_of(match: re.Match[str]) -> int:
    return int(next(g for g in match.groups() if g))


def _century(two: int) -> int:
    return 1900 + two if two >= 50 else 2000 + two


def _paragraphs(lines: list[Line]) -> list[tuple[str, float, float]]:
    """Runs of lines set close together in one size, with that size and their top: a footnote or a
    banner read whole, so "Appears in Proc. of … Middleware 2001" keeps its venue and its
    year together."""
    out: list[list[Line]] = []
    for line in lines:
        last = out[-1][-1] if out else None
        if last is not None and abs(last.size - line.size) < 0.5 and not line.note and \
                0 <= line.bbox[1] - last.bbox[3] < 0.8 * max(last.bbox[3] - last.bbox[1], 1.0):
            out[-1].append(line)
        else:
            out.append([line])
    texts = []
    for group in out:
        text = " ".join(ln.text for ln in group)
        texts.append((text, group[0].size, group[0].bbox[1]))
        if len(group) > 3 and _PERMISSION.search(text):
            # A permission block names its venue and date on a line of its own ("… (CIDR
            # '11) January 9-12, 2011, Asilomar", "SOSP'15, October 4–7, 2015", with the
            # copyright and DOI lines after it): its lines are read on their own too.
            texts.extend((ln.text, ln.size, ln.bbox[1]) for ln in group)
    return texts


# --- identifiers and labels ---------------------------------------------------------------

def document_ids(info: dict[str, str], first: PageText | None, file_name: str = "") -> dict[str, str]:
    """The DOI and arXiv identifier printed on the first page (its margin stamp too) or in
    the metadata, when there are any: what a reference manager needs to find the paper.
    The file name is the last resort for arXiv ids (arXiv's own downloads are named
    ``2206.10883v3.pdf``)."""
    text = " ".join([info.get("Subject") or "", info.get("Keywords") or "", info.get("doi") or "",
                     first.margin if first is not None else "",
                     *(ln.text for ln in (first.lines if first is not None else []))])
    out: dict[str, str] = {}
    doi = _DOI.search(text)
    if doi:
        out["doi"] = doi.group(1).rstrip(".,;)]}")
    arxiv = _ARXIV.search(text) or _ARXIV_NAME.search(file_name)
    if arxiv:
        out["arxiv"] = arxiv.group(1)
    return out


def arxiv_year(arxiv_id: str | None) -> int | None:
    """2206.10883 → 2022, quant-ph/9508027 → 1995: arXiv ids start with the submission's
    year and month."""
    match = re.match(r"(?:[a-z-]+(?:\.[A-Z]{2})?/)?(\d{2})(\d{2})", arxiv_id or "")
    if not match or not 1 <= int(match.group(2)) <= 12:
        return None
    two = int(match.group(1))
    return 2000 + two if "/" not in (arxiv_id or "") or two < 91 else 1900 + two


def citation_label(authors: list[str], year: int | None, title: str | None, fallback: str,
                   surnames: list[str] | None = None) -> str:
    """"Vaswani et al., 2017"; "Hunt et al., n.d." without a year; the title or the file
    name when no author is known. ``surnames``: the family names when a record knows them
    (Zotero's "Stein Shiromoto"), else each author's last word with its particles."""
    surnames = surnames if surnames is not None else [_surname(a) for a in authors if a.split()]
    if len(surnames) >= 3:
        who = f"{surnames[0]} et al."
    elif len(surnames) == 2:
        who = f"{surnames[0]} and {surnames[1]}"
    elif surnames:
        who = surnames[0]
    else:
        who = (title or fallback)[:80]
        return f"{who}, {year}" if year else who
    return f"{who}, {year if year else 'n.d.'}"


def _surname(name: str) -> str:
    words = name.split()
    if len(words) > 2 and _SUFFIX.fullmatch(words[-1]):
        words = words[:-1]  # "Steele Jr.": the family name is Steele
    start = len(words) - 1
    while start > 0 and words[start - 1].lower() in _PARTICLES:
        start -= 1
    return " ".join(words[start:])


def _title_case(text: str) -> str:
    small = {"a", "an", "the", "of", "and", "or", "for", "in", "on", "to", "with", "by", "as", "at"}
    words = text.lower().split()
    return " ".join(w if i and w in small else (w[:1].upper() + w[1:]) for i, w in enumerate(words))


def _key(text: str) -> str:
    folded = unicodedata.normalize("NFKD", text)
    return re.sub(r"[\W_]+", "", "".join(ch for ch in folded if not unicodedata.combining(ch))).lower()
