"""Citations as a reader keeps them: their labels, their bibliographic export, and where a cited passage is now.

- ``labels``: the one label of a citation (``guide.md:40–58``, ``paper.pdf p. 3``);
- ``bibliography``: BibTeX, RIS and CSL-JSON of a cited source;
- ``freshness``: whether a cited passage moved, changed or is gone since the answer.

How an answer earns its citations (markers tied to the turn's evidence, markers added
to a small model's sentences, the narrowest locator of a quote) is the agent's work and
stays with it: ``agent/citations.py``, ``agent/attribute.py`` and ``agent/locate.py``. They
read the agent's corpus and passages, so they sit above search; this package sits below
it (search labels its hits and attaches records with it), above the index that
``freshness`` reads.
"""
