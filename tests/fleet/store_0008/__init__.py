"""The store's migrations 0005–0008 as they were while the workers' coordination lived in the
store: they made ``sheet_leases``, ``sync_jobs``, ``quota_budget``, ``sheet_accounts`` and
``sync_workers`` in the store's history. Kept verbatim (renamed ``v…`` so that they import as
modules), so that a test can build a database as every deployment made before the fleet's own
history has it, and open it with today's code (:mod:`tests.fleet.test_migrations`).
They are a record, never changed: the store's own 0005–0008 are empty now.
"""
