"""PDF ingestion: pypdfium2 extraction with page regions, OCR for scans, previews.

``athena_lab.ingest.parsers.pdf.parse`` is the entry point for one file,
``athena_lab.ingest.pdf_pool.parse_pdfs`` for many; ``source.read_pdf_source`` and
``preview.render_page_preview`` serve citations back to the user.
"""
