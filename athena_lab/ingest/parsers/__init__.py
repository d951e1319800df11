"""Parser registry: one module per format, each exposing NAME, VERSION and parse().

Text formats: ``parse(text: str, path: str) -> ParsedDocument``.
PDF: ``parse(abs_path: Path, path: str, options: PdfOptions) -> ParsedDocument``.
Bumping a module's VERSION re-parses only files of that kind on the next index run.
"""
