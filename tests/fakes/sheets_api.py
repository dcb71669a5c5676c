"""A loopback fake of the Google Sheets API v4 and Google's OAuth token endpoint.

Real gspread and real google-auth talk to it over HTTP on 127.0.0.1: the fake verifies the
service account's signed JWT, issues bearer tokens, keeps spreadsheets in memory, counts
every call, enforces Google's per-user quotas when asked, and fails or stalls on demand.

>>> with SheetsFake() as fake:
...     sheet_id = fake.create_spreadsheet("Club", {"Results": [["#", "Name"], [1, "Ada"]]})
...     fake.values(sheet_id, "Results!A1:B2")
[['#', 'Name'], ['1', 'Ada']]

How to drive it, and what it leaves out: ``tests/fakes/README.md``. The pytest fixtures
(``sheets_fake``, ``service_account_file``, ``sheets_settings``, ``sheets_env``) are in
``tests.fakes.sheets_fixtures``; ``generate_service_account`` writes more key files.
"""

from tests.fakes.sheets.a1 import Box, column_letters, format_range, quote_title
from tests.fakes.sheets.accounts import (
    SERVICE_ACCOUNT_EMAIL,
    ServiceAccountKey,
    generate_service_account,
)
from tests.fakes.sheets.auth import (
    SCOPE_SPREADSHEETS,
    SCOPE_SPREADSHEETS_READONLY,
    ServiceAccount,
)
from tests.fakes.sheets.errors import ApiError
from tests.fakes.sheets.model import CELL_LIMIT, DEFAULT_COLUMNS, DEFAULT_ROWS
from tests.fakes.sheets.server import (
    ApiCall,
    CellView,
    ManualClock,
    Op,
    SheetsFake,
    SheetView,
    TokenRequest,
)
from tests.fakes.sheets.values import UNEVALUATED_FORMULA

__all__ = [
    "CELL_LIMIT",
    "DEFAULT_COLUMNS",
    "DEFAULT_ROWS",
    "SCOPE_SPREADSHEETS",
    "SCOPE_SPREADSHEETS_READONLY",
    "SERVICE_ACCOUNT_EMAIL",
    "UNEVALUATED_FORMULA",
    "ApiCall",
    "ApiError",
    "Box",
    "CellView",
    "ManualClock",
    "Op",
    "ServiceAccount",
    "ServiceAccountKey",
    "SheetView",
    "SheetsFake",
    "TokenRequest",
    "column_letters",
    "format_range",
    "generate_service_account",
    "quote_title",
]
