"""The Google Sheets worker: a TD's results tab in, ranked Standings and Errors tabs out.

One sync (:func:`sheets.sync.sync`) reads a spreadsheet in one API call, ranks it with
``core``, and writes the worker's own tabs in one more; ``harkness-sheets`` runs it once
(``sync``), for many sheets (``watch``), or when the Apps Script add-on asks (``serve``).
"""
