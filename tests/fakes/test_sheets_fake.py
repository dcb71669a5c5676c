"""Specification of the Sheets fake and of the worker's client (``sheets.client``).

Every test drives real gspread and real google-auth, through ``sheets.client.open_client``,
over HTTP to the loopback fake on 127.0.0.1: tokens come from a signed JWT exchange with a key
generated in the test, and every API call is a real request the fake answers and records.
"""

from __future__ import annotations

import json
import logging
import random
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import requests
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import rsa
from google.auth import crypt, jwt
from gspread.urls import SPREADSHEETS_API_V4_BASE_URL
from gspread.utils import ValueInputOption

from sheets.client import (
    RetryPolicy,
    SheetsAuthError,
    SheetsClient,
    SheetsConfigError,
    SheetsNotFoundError,
    SheetsPermissionError,
    SheetsRequestError,
    SheetsTimeoutError,
    SheetsUnavailableError,
    describe_call,
    open_client,
)
from sheets.settings import SheetsSettings
from tests.fakes.sheets_api import (
    CELL_LIMIT,
    ManualClock,
    Op,
    ServiceAccountKey,
    SheetsFake,
    generate_service_account,
)

pytest_plugins = ["tests.fakes.sheets_fixtures"]
"""The fixtures ``sheets_fake``, ``service_account_file``, ``sheets_settings``, ``sheets_env``."""

CROSSTABLE = [
    ["#", "Name", "Rating", "Rd 1", "Rd 2"],
    [1, "Ada Lovelace", 1850, "W2 (w)", "D3"],
    [2, "Alan Turing", 1790, "L1 (b)", "B"],
    [3, "Grace Hopper", "", "B", "D1"],
]


@pytest.fixture
def club(sheets_fake: SheetsFake, service_account_file: ServiceAccountKey) -> str:
    """A spreadsheet shared with the worker: a crosstable tab, a players tab and a quoted tab."""
    return sheets_fake.create_spreadsheet(
        "Spring Swiss 2026",
        {
            "Results": CROSSTABLE,
            "Players": [["#", "Name"], [1, "Ada Lovelace"]],
            "TD's notes": [["Round 2 starts late"]],
        },
        shared_with=[service_account_file.email],
    )


@pytest.fixture
def client(sheets_settings: SheetsSettings) -> SheetsClient:
    """The worker's gspread client, pointed at the fake."""
    return open_client(sheets_settings)


def _settings(base: SheetsSettings, **changes: Any) -> SheetsSettings:
    return base.model_copy(update=changes)


# --------------------------------------------------------------------------- tokens


def test_client_exchanges_a_jwt_signed_with_the_generated_key_once_for_many_calls(
    sheets_fake: SheetsFake,
    service_account_file: ServiceAccountKey,
    client: SheetsClient,
    club: str,
) -> None:
    client.http_client.values_batch_get(club, ["Results!A1"])
    client.http_client.values_batch_get(club, ["Players!A1"])

    [token_request] = sheets_fake.token_requests
    assert token_request.status == 200
    assert token_request.email == service_account_file.email
    assert [call.user for call in sheets_fake.calls(club)] == [service_account_file.email] * 2


def test_an_expired_access_token_is_refreshed_transparently(
    sheets_fake: SheetsFake, client: SheetsClient, club: str
) -> None:
    client.http_client.values_batch_get(club, ["Results!A1"])
    sheets_fake.expire_access_tokens()

    client.http_client.values_batch_get(club, ["Results!A1"])

    assert [call.status for call in sheets_fake.calls(club)] == [200, 401, 200]
    assert len(sheets_fake.token_requests) == 2


def test_a_key_the_fake_does_not_know_cannot_get_a_token(
    sheets_fake: SheetsFake, sheets_settings: SheetsSettings, tmp_path: Path, club: str
) -> None:
    stranger = generate_service_account(
        sheets_fake, tmp_path, email="deleted@harkness-test.iam.gserviceaccount.com", register=False
    )
    client = open_client(_settings(sheets_settings, google_application_credentials=stranger.path))

    with pytest.raises(SheetsAuthError) as refused:
        client.http_client.values_batch_get(club, ["Results!A1"])

    message = str(refused.value)
    assert "deleted@harkness-test.iam.gserviceaccount.com" in message
    assert "invalid_grant" in message
    assert sheets_fake.token_requests[-1].status == 400
    assert sheets_fake.calls() == []


def test_the_token_endpoint_verifies_the_signature_not_just_the_key_id(
    sheets_fake: SheetsFake,
    sheets_settings: SheetsSettings,
    service_account_file: ServiceAccountKey,
    club: str,
) -> None:
    impostor_key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    info = json.loads(service_account_file.path.read_text())
    info["private_key"] = impostor_key.private_bytes(
        serialization.Encoding.PEM,
        serialization.PrivateFormat.PKCS8,
        serialization.NoEncryption(),
    ).decode("ascii")
    forged = service_account_file.path.with_name("forged.json")
    forged.write_text(json.dumps(info))
    client = open_client(_settings(sheets_settings, google_application_credentials=forged))

    with pytest.raises(SheetsAuthError, match="Invalid JWT Signature"):
        client.http_client.values_batch_get(club, ["Results!A1"])


def _assertion(key: ServiceAccountKey, **claims: Any) -> str:
    """A JWT-bearer assertion signed with the key, with some claims changed (None drops one)."""
    make_signer: Callable[[str, str], crypt.RSASigner] = crypt.RSASigner.from_string
    sign: Callable[[crypt.RSASigner, dict[str, Any]], bytes] = jwt.encode
    now = int(time.time())
    payload: dict[str, Any] = {
        "iss": key.email,
        "aud": "https://oauth2.googleapis.com/token",
        "scope": "https://www.googleapis.com/auth/spreadsheets",
        "iat": now,
        "exp": now + 3600,
    }
    payload.update(claims)
    payload = {name: value for name, value in payload.items() if value is not None}
    signer = make_signer(key.private_key_pem.decode("ascii"), key.key_id)
    return sign(signer, payload).decode("ascii")


@pytest.mark.parametrize(
    ("claims", "error", "description"),
    [
        (
            {"exp": int(time.time()) - 10, "iat": int(time.time()) - 3610},
            "invalid_grant",
            "iat and exp",
        ),
        ({"exp": int(time.time()) + 7200}, "invalid_grant", "short-lived"),
        ({"aud": "https://example.org/token"}, "invalid_grant", "audience"),
        ({"iss": "someone@else.iam.gserviceaccount.com"}, "invalid_grant", "account not found"),
        ({"scope": None}, "invalid_scope", "Invalid OAuth scope"),
    ],
    ids=["expired", "too-long-lived", "wrong-audience", "unknown-issuer", "no-scope"],
)
def test_the_token_endpoint_checks_the_assertion_claims(
    sheets_fake: SheetsFake,
    service_account_file: ServiceAccountKey,
    claims: dict[str, Any],
    error: str,
    description: str,
) -> None:
    answer = requests.post(
        sheets_fake.token_uri,
        data={
            "grant_type": "urn:ietf:params:oauth:grant-type:jwt-bearer",
            "assertion": _assertion(service_account_file, **claims),
        },
        timeout=5,
    )

    assert answer.status_code == 400
    assert answer.json()["error"] == error
    assert description in answer.json()["error_description"]


def test_the_token_endpoint_accepts_a_well_formed_assertion(
    sheets_fake: SheetsFake, service_account_file: ServiceAccountKey
) -> None:
    answer = requests.post(
        sheets_fake.token_uri,
        data={
            "grant_type": "urn:ietf:params:oauth:grant-type:jwt-bearer",
            "assertion": _assertion(service_account_file),
        },
        timeout=5,
    )

    assert answer.status_code == 200
    assert answer.json()["token_type"] == "Bearer"
    assert answer.json()["expires_in"] == 3599


# --------------------------------------------------------------------------- access


def test_an_api_call_without_a_valid_bearer_token_gets_401(
    sheets_fake: SheetsFake, club: str
) -> None:
    url = f"{sheets_fake.base_url}/v4/spreadsheets/{club}"

    anonymous = requests.get(url, timeout=5)
    bogus = requests.get(url, headers={"Authorization": "Bearer ya29.made-up"}, timeout=5)

    for answer in (anonymous, bogus):
        assert answer.status_code == 401
        assert answer.json()["error"]["status"] == "UNAUTHENTICATED"
    assert "missing required authentication credential" in anonymous.json()["error"]["message"]
    assert "invalid authentication credentials" in bogus.json()["error"]["message"]


def test_a_spreadsheet_not_shared_with_the_service_account_names_the_address_to_share_with(
    sheets_fake: SheetsFake, service_account_file: ServiceAccountKey, client: SheetsClient
) -> None:
    private = sheets_fake.create_spreadsheet("TD's private sheet", {"Results": CROSSTABLE})

    with pytest.raises(SheetsPermissionError) as denied:
        client.open_spreadsheet(f"https://docs.google.com/spreadsheets/d/{private}/edit#gid=0")

    assert denied.value.share_with == service_account_file.email
    assert denied.value.status == 403
    assert f"share the spreadsheet with {service_account_file.email}" in str(denied.value)
    assert private in str(denied.value)
    assert "The caller does not have permission" in str(denied.value)
    assert sheets_fake.call_count(private, status=403) == 1


def test_a_read_only_share_lets_the_worker_read_but_not_write(
    sheets_fake: SheetsFake, service_account_file: ServiceAccountKey, client: SheetsClient
) -> None:
    shown = sheets_fake.create_spreadsheet(
        "Shared to view",
        {"Results": CROSSTABLE},
        shared_with=[service_account_file.email],
        role="reader",
    )
    spreadsheet = client.open_spreadsheet(shown)

    with pytest.raises(SheetsPermissionError, match="may not edit"):
        spreadsheet.values_update(
            "Results!F1", params={"valueInputOption": "RAW"}, body={"values": [["x"]]}
        )


def test_an_unknown_spreadsheet_is_not_found(client: SheetsClient) -> None:
    with pytest.raises(SheetsNotFoundError, match="check the spreadsheet ID or URL"):
        client.open_spreadsheet("1NoSuchSpreadsheet0000000000000000000000000")


def test_the_client_refuses_any_google_api_but_sheets(
    sheets_fake: SheetsFake, client: SheetsClient
) -> None:
    with pytest.raises(SheetsRequestError, match="only uses the Google Sheets API"):
        client.list_spreadsheet_files()

    assert sheets_fake.calls() == []
    assert sheets_fake.token_requests == []


# --------------------------------------------------------------------------- values


def test_batch_get_reads_several_tabs_in_one_call(
    sheets_fake: SheetsFake, client: SheetsClient, club: str
) -> None:
    answer = client.http_client.values_batch_get(
        club, ["Results", "'Players'!A1:B2", "'TD''s notes'!A1"]
    )

    results, players, notes = answer["valueRanges"]
    assert results["range"] == "Results!A1:Z1000"
    assert results["values"] == [
        ["#", "Name", "Rating", "Rd 1", "Rd 2"],
        ["1", "Ada Lovelace", "1850", "W2 (w)", "D3"],
        ["2", "Alan Turing", "1790", "L1 (b)", "B"],
        ["3", "Grace Hopper", "", "B", "D1"],
    ]
    assert players == {
        "range": "Players!A1:B2",
        "majorDimension": "ROWS",
        "values": [["#", "Name"], ["1", "Ada Lovelace"]],
    }
    assert notes["range"] == "'TD''s notes'!A1"
    [call] = sheets_fake.calls(club)
    assert call.operation == Op.VALUES_BATCH_GET
    assert call.ranges == ["Results", "'Players'!A1:B2", "'TD''s notes'!A1"]


def test_render_options_and_major_dimension_follow_the_api(client: SheetsClient, club: str) -> None:
    unformatted = client.http_client.values_get(
        club,
        "Results!A1:C3",
        params={"valueRenderOption": "UNFORMATTED_VALUE", "majorDimension": "COLUMNS"},
    )

    assert unformatted["values"] == [
        ["#", 1, 2],
        ["Name", "Ada Lovelace", "Alan Turing"],
        ["Rating", 1850, 1790],
    ]


def test_values_written_raw_stay_text_even_when_they_look_like_formulas(
    sheets_fake: SheetsFake, client: SheetsClient, club: str
) -> None:
    standings = client.open_spreadsheet(club).worksheet("Results")

    standings.update([['=IMPORTXML("http://x", "//a")', "42", "TRUE"]], "F2", raw=True)

    formula_looking = sheets_fake.cell(club, "Results!F2")
    assert formula_looking.is_text and not formula_looking.is_formula
    assert formula_looking.entered == {"stringValue": '=IMPORTXML("http://x", "//a")'}
    assert sheets_fake.values(club, "Results!F2:H2", render="UNFORMATTED_VALUE") == [
        ['=IMPORTXML("http://x", "//a")', "42", "TRUE"]
    ]


def test_values_written_user_entered_are_parsed_like_typing(
    sheets_fake: SheetsFake, client: SheetsClient, club: str
) -> None:
    sheet = client.open_spreadsheet(club).worksheet("Results")

    sheet.update([["=SUM(C2:C3)", "42", "TRUE", "'7", "½-½"]], "F2", raw=False)

    assert sheets_fake.cell(club, "Results!F2").is_formula
    assert sheets_fake.values(club, "Results!F2:J2", render="UNFORMATTED_VALUE") == [
        ["#N/A", 42, True, "7", "½-½"]
    ]
    assert sheets_fake.values(club, "Results!F2", render="FORMULA") == [["=SUM(C2:C3)"]]


def test_writing_outside_the_grid_fails_like_google(client: SheetsClient, club: str) -> None:
    sheet = client.open_spreadsheet(club).worksheet("Results")

    with pytest.raises(SheetsRequestError, match=r"exceeds grid limits. Max rows: 1000"):
        sheet.update([["late entry"]], "A1001")


def test_append_adds_rows_after_the_table_and_grows_the_grid(
    sheets_fake: SheetsFake, client: SheetsClient, service_account_file: ServiceAccountKey
) -> None:
    full = sheets_fake.create_spreadsheet(
        "Full",
        {"Discord reports": [["Time", "Round"]] + [["t", r] for r in range(1, 1000)]},
        shared_with=[service_account_file.email],
    )
    reports = client.open_spreadsheet(full).worksheet("Discord reports")

    answer = reports.append_rows([["12:00", 5]], value_input_option=ValueInputOption.raw)

    assert answer["updates"]["updatedRange"] == "'Discord reports'!A1001:B1001"
    assert sheets_fake.sheet(full, "Discord reports").row_count == 1001
    assert sheets_fake.values(full, "'Discord reports'!A1001:B1001") == [["12:00", "5"]]


# --------------------------------------------------------------------------- batchUpdate


def _standings_batch(sheet_id: int) -> list[dict[str, Any]]:
    header = ["Place", "#", "Name", "Score"]
    return [
        {"addSheet": {"properties": {"sheetId": sheet_id, "title": "Standings"}}},
        {
            "updateCells": {
                "start": {"sheetId": sheet_id, "rowIndex": 0, "columnIndex": 0},
                "rows": [
                    {"values": [{"userEnteredValue": {"stringValue": text}} for text in header]},
                    {
                        "values": [
                            {"userEnteredValue": {"numberValue": 1}},
                            {"userEnteredValue": {"numberValue": 3}},
                            {"userEnteredValue": {"stringValue": "=IMPORTXML(1)"}},
                            {"userEnteredValue": {"numberValue": 1.5}},
                        ]
                    },
                ],
                "fields": "userEnteredValue",
            }
        },
        {
            "repeatCell": {
                "range": {"sheetId": sheet_id, "startRowIndex": 0, "endRowIndex": 1},
                "cell": {"userEnteredFormat": {"textFormat": {"bold": True}}},
                "fields": "userEnteredFormat.textFormat.bold",
            }
        },
        {
            "updateSheetProperties": {
                "properties": {"sheetId": sheet_id, "gridProperties": {"frozenRowCount": 1}},
                "fields": "gridProperties.frozenRowCount",
            }
        },
        {
            "addProtectedRange": {
                "protectedRange": {
                    "range": {"sheetId": sheet_id},
                    "description": "Written by Harkness",
                    "warningOnly": True,
                }
            }
        },
        {
            "createDeveloperMetadata": {
                "developerMetadata": {
                    "metadataKey": "harkness.output",
                    "metadataValue": "standings",
                    "location": {"sheetId": sheet_id},
                    "visibility": "DOCUMENT",
                }
            }
        },
    ]


def test_one_batch_update_creates_a_frozen_protected_tagged_output_tab(
    sheets_fake: SheetsFake, client: SheetsClient, club: str
) -> None:
    spreadsheet = client.open_spreadsheet(club)
    sheets_fake.reset_calls()

    answer = spreadsheet.batch_update({"requests": _standings_batch(777)})

    [call] = sheets_fake.calls(club)
    assert call.operation == Op.BATCH_UPDATE
    assert call.request_kinds == [
        "addSheet",
        "updateCells",
        "repeatCell",
        "updateSheetProperties",
        "addProtectedRange",
        "createDeveloperMetadata",
    ]
    assert answer["replies"][0]["addSheet"]["properties"]["title"] == "Standings"
    assert answer["replies"][1:4] == [{}, {}, {}]
    standings = sheets_fake.sheet(club, "Standings")
    assert standings.index == 3
    assert standings.frozen_row_count == 1
    [protection] = standings.protected_ranges
    assert protection["warningOnly"] is True
    assert protection["range"] == {"sheetId": 777}
    [tag] = standings.developer_metadata
    assert (tag["metadataKey"], tag["metadataValue"]) == ("harkness.output", "standings")
    assert tag["location"] == {"locationType": "SHEET", "sheetId": 777}
    assert sheets_fake.values(club, "Standings") == [
        ["Place", "#", "Name", "Score"],
        ["1", "3", "=IMPORTXML(1)", "1.5"],
    ]
    assert sheets_fake.cell(club, "Standings!C2").is_text
    assert sheets_fake.cell(club, "Standings!D1").format == {"textFormat": {"bold": True}}
    assert sheets_fake.cell(club, "Standings!D2").format == {}


def test_spreadsheets_get_reads_back_tabs_protections_and_metadata_through_the_api(
    client: SheetsClient, club: str
) -> None:
    spreadsheet = client.open_spreadsheet(club)
    spreadsheet.batch_update({"requests": _standings_batch(777)})

    answer = spreadsheet.fetch_sheet_metadata(
        params={
            "fields": "sheets(properties(title,gridProperties),protectedRanges,developerMetadata)"
        }
    )

    standings = answer["sheets"][3]
    assert standings["properties"] == {
        "title": "Standings",
        "gridProperties": {"rowCount": 1000, "columnCount": 26, "frozenRowCount": 1},
    }
    assert standings["protectedRanges"][0]["warningOnly"] is True
    assert standings["protectedRanges"][0]["requestingUserCanEdit"] is True
    assert standings["developerMetadata"][0]["metadataKey"] == "harkness.output"
    assert set(answer) == {"sheets"}
    assert "protectedRanges" not in answer["sheets"][0]


def test_grid_data_tells_text_from_formulas(client: SheetsClient, club: str) -> None:
    spreadsheet = client.open_spreadsheet(club)
    spreadsheet.values_update(
        "Results!F1", params={"valueInputOption": "USER_ENTERED"}, body={"values": [["=1+1"]]}
    )
    spreadsheet.values_update(
        "Results!G1", params={"valueInputOption": "RAW"}, body={"values": [["=1+1"]]}
    )

    answer = spreadsheet.fetch_sheet_metadata(
        params={"includeGridData": "true", "ranges": "Results!F1:G1"}
    )

    [data] = answer["sheets"][0]["data"]
    formula, text = data["rowData"][0]["values"]
    assert data["startColumn"] == 5
    assert formula["userEnteredValue"] == {"formulaValue": "=1+1"}
    assert formula["effectiveValue"]["errorValue"]["type"] == "N_A"
    assert text["userEnteredValue"] == {"stringValue": "=1+1"}
    assert text["formattedValue"] == "=1+1"


def test_a_fields_mask_naming_grid_data_returns_it_and_overrides_include_grid_data(
    client: SheetsClient, club: str
) -> None:
    masked = client.http_client.fetch_sheet_metadata(
        club,
        params={
            "includeGridData": "false",
            "ranges": "Players!A1:B2",
            "fields": "sheets(properties.title,data.rowData.values.formattedValue)",
        },
    )
    unmasked = client.http_client.fetch_sheet_metadata(club, params={"includeGridData": "false"})

    [players] = masked["sheets"]
    assert players["properties"] == {"title": "Players"}
    assert players["data"][0]["rowData"][1]["values"] == [
        {"formattedValue": "1"},
        {"formattedValue": "Ada Lovelace"},
    ]
    assert all("data" not in sheet for sheet in unmasked["sheets"])


def test_a_batch_update_applies_all_of_its_requests_or_none(
    sheets_fake: SheetsFake, client: SheetsClient, club: str
) -> None:
    spreadsheet = client.open_spreadsheet(club)

    with pytest.raises(SheetsRequestError) as rejected:
        spreadsheet.batch_update(
            {
                "requests": [
                    {"addSheet": {"properties": {"title": "Standings"}}},
                    {"addSheet": {"properties": {"title": "results"}}},
                ]
            }
        )

    assert 'Invalid requests[1].addSheet: A sheet with the name "results" already exists' in str(
        rejected.value
    )
    assert sheets_fake.sheet_titles(club) == ["Results", "Players", "TD's notes"]


def test_a_refused_batch_update_leaves_every_cell_it_changed_as_it_was(
    sheets_fake: SheetsFake, client: SheetsClient, club: str
) -> None:
    """Cells changed, moved and formatted by the requests before the refused one are back
    as they were (the fake tries a write on a copy that shares the cells it has not
    changed)."""
    results = sheets_fake.sheet(club, "Results").sheet_id
    bold = {"textFormat": {"bold": True}}
    start = {"sheetId": results, "rowIndex": 1, "columnIndex": 1}
    client.http_client.batch_update(
        club,
        {
            "requests": [
                {
                    "updateCells": {
                        "start": start,
                        "rows": [{"values": [{"userEnteredFormat": bold}]}],
                        "fields": "userEnteredFormat",
                    }
                }
            ]
        },
    )
    before = sheets_fake.values(club, "Results")
    with pytest.raises(SheetsRequestError):
        client.http_client.batch_update(
            club,
            {
                "requests": [
                    {
                        "updateCells": {
                            "start": start,
                            "rows": [
                                {
                                    "values": [
                                        {
                                            "userEnteredValue": {"stringValue": "Eve"},
                                            "userEnteredFormat": {"textFormat": {"italic": True}},
                                        }
                                    ]
                                }
                            ],
                            "fields": "userEnteredValue,userEnteredFormat.textFormat",
                        }
                    },
                    {
                        "moveDimension": {
                            "source": {
                                "sheetId": results,
                                "dimension": "ROWS",
                                "startIndex": 1,
                                "endIndex": 2,
                            },
                            "destinationIndex": 4,
                        }
                    },
                    {"addSheet": {"properties": {"title": "results"}}},
                ]
            },
        )
    assert sheets_fake.values(club, "Results") == before
    cell = sheets_fake.cell(club, "Results!B2")
    assert (cell.formatted, cell.format) == ("Ada Lovelace", bold)


def test_move_dimension_counts_the_destination_before_the_rows_leave(
    sheets_fake: SheetsFake, client: SheetsClient, club: str
) -> None:
    """As the API reference's example: rows ``[1, 3)`` of ``0..4`` moved to 4 give
    ``0, 3, 1, 2, 4``; moving rows up works the same way, with their formats and notes."""
    sheets_fake.add_tab(club, "Rows", [[n] for n in range(5)])
    rows = sheets_fake.sheet(club, "Rows").sheet_id

    def move(start: int, end: int, destination: int) -> None:
        source = {"sheetId": rows, "dimension": "ROWS", "startIndex": start, "endIndex": end}
        client.http_client.batch_update(
            club,
            {"requests": [{"moveDimension": {"source": source, "destinationIndex": destination}}]},
        )

    move(1, 3, 4)
    assert sheets_fake.values(club, "Rows!A1:A5") == [["0"], ["3"], ["1"], ["2"], ["4"]]
    move(3, 5, 0)
    assert sheets_fake.values(club, "Rows!A1:A5") == [["2"], ["4"], ["0"], ["3"], ["1"]]
    move(1, 2, 2)  # already there: nothing moves
    assert sheets_fake.values(club, "Rows!A1:A5") == [["2"], ["4"], ["0"], ["3"], ["1"]]
    with pytest.raises(SheetsRequestError, match="within the grid"):
        move(1, 2, 1001)


def test_moves_in_one_batch_land_as_one_by_one(
    sheets_fake: SheetsFake, client: SheetsClient, club: str
) -> None:
    """Moves of one batch (composed by the fake into one order) give what the same moves
    give one request at a time, also with a write to a moved row between them."""
    sheets_fake.add_tab(club, "Rows", [[n, f"n{n}"] for n in range(6)])
    rows = sheets_fake.sheet(club, "Rows").sheet_id

    def move(start: int, end: int, destination: int, dimension: str = "ROWS") -> dict[str, Any]:
        source = {"sheetId": rows, "dimension": dimension, "startIndex": start, "endIndex": end}
        return {"moveDimension": {"source": source, "destinationIndex": destination}}

    write = {
        "updateCells": {
            "start": {"sheetId": rows, "rowIndex": 0, "columnIndex": 0},
            "rows": [{"values": [{"userEnteredValue": {"stringValue": "first"}}]}],
            "fields": "userEnteredValue",
        }
    }
    requests = [move(1, 3, 4), move(3, 5, 0), write, move(0, 1, 6), move(0, 1, 2, "COLUMNS")]
    client.http_client.batch_update(club, {"requests": requests})
    assert sheets_fake.values(club, "Rows!A1:B6") == [
        ["n4", "4"],
        ["n0", "0"],
        ["n3", "3"],
        ["n1", "1"],
        ["n5", "5"],
        ["n2", "first"],
    ]


def test_a_spreadsheet_may_not_grow_past_ten_million_cells(client: SheetsClient, club: str) -> None:
    spreadsheet = client.open_spreadsheet(club)

    with pytest.raises(SheetsRequestError, match=f"above the limit of {CELL_LIMIT} cells"):
        spreadsheet.add_worksheet("Huge", rows=400_000, cols=26)


def test_a_hard_protection_blocks_the_worker_but_a_warning_does_not(
    sheets_fake: SheetsFake, client: SheetsClient, club: str
) -> None:
    sheets_fake.protect(club, "Results", description="TD only")
    sheets_fake.protect(club, "Players", warning_only=True)
    spreadsheet = client.open_spreadsheet(club)

    spreadsheet.values_update(
        "Players!C1", params={"valueInputOption": "RAW"}, body={"values": [["Discord"]]}
    )
    with pytest.raises(SheetsRequestError, match="protected cell or object"):
        spreadsheet.values_update(
            "Results!F1", params={"valueInputOption": "RAW"}, body={"values": [["x"]]}
        )


# --------------------------------------------------------------------------- developer metadata


def test_developer_metadata_search_finds_entries_by_key_and_location(
    sheets_fake: SheetsFake, client: SheetsClient, club: str
) -> None:
    spreadsheet = client.open_spreadsheet(club)
    spreadsheet.batch_update(
        {
            "requests": [
                *_standings_batch(777),
                {
                    "createDeveloperMetadata": {
                        "developerMetadata": {
                            "metadataKey": "harkness.input-hash",
                            "metadataValue": "sha256:abc",
                            "location": {"spreadsheet": True},
                            "visibility": "DOCUMENT",
                        }
                    }
                },
            ]
        }
    )
    search_url = f"{SPREADSHEETS_API_V4_BASE_URL}/{club}/developerMetadata:search"

    by_key = client.http_client.request(
        "post",
        search_url,
        json={"dataFilters": [{"developerMetadataLookup": {"metadataKey": "harkness.input-hash"}}]},
    ).json()
    on_standings = client.http_client.request(
        "post",
        search_url,
        json={
            "dataFilters": [
                {
                    "developerMetadataLookup": {
                        "metadataLocation": {"sheetId": 777},
                        "locationMatchingStrategy": "EXACT_LOCATION",
                    }
                }
            ]
        },
    ).json()
    nothing = client.http_client.request(
        "post",
        search_url,
        json={"dataFilters": [{"developerMetadataLookup": {"metadataKey": "other"}}]},
    ).json()

    [hash_entry] = by_key["matchedDeveloperMetadata"]
    assert hash_entry["developerMetadata"]["metadataValue"] == "sha256:abc"
    assert hash_entry["developerMetadata"]["location"]["locationType"] == "SPREADSHEET"
    [output_tag] = on_standings["matchedDeveloperMetadata"]
    assert output_tag["developerMetadata"]["metadataKey"] == "harkness.output"
    assert nothing == {}
    assert sheets_fake.call_count(club, operation=Op.METADATA_SEARCH) == 3
    assert sheets_fake.calls(club, operation=Op.METADATA_SEARCH)[0].kind == "read"


def test_developer_metadata_can_be_updated_in_place(
    sheets_fake: SheetsFake, client: SheetsClient, club: str
) -> None:
    spreadsheet = client.open_spreadsheet(club)
    spreadsheet.batch_update({"requests": _standings_batch(777)})

    spreadsheet.batch_update(
        {
            "requests": [
                {
                    "updateDeveloperMetadata": {
                        "dataFilters": [
                            {"developerMetadataLookup": {"metadataKey": "harkness.output"}}
                        ],
                        "developerMetadata": {"metadataValue": "standings-v2"},
                        "fields": "metadataValue",
                    }
                }
            ]
        }
    )

    [tag] = sheets_fake.developer_metadata(club, "harkness.output")
    assert tag["metadataValue"] == "standings-v2"


# --------------------------------------------------------------------------- retries and timeouts


@pytest.mark.parametrize("status", [429, 500, 503])
def test_a_transient_failure_is_retried_then_succeeds(
    sheets_fake: SheetsFake, sheets_settings: SheetsSettings, club: str, status: int
) -> None:
    waits: list[float] = []
    client = open_client(sheets_settings, sleep=waits.append)
    sheets_fake.fail_next(2, status)

    answer = client.http_client.values_batch_get(club, ["Results!A1"])

    assert answer["valueRanges"][0]["values"] == [["#"]]
    assert [call.status for call in sheets_fake.calls(club)] == [status, status, 200]
    assert len(waits) == 2


def test_retries_back_off_exponentially_with_bounded_jitter(
    sheets_fake: SheetsFake, sheets_settings: SheetsSettings, club: str
) -> None:
    waits: list[float] = []
    settings = _settings(sheets_settings, retries=6, backoff_initial=1.0, backoff_max=8.0)
    client = open_client(settings, sleep=waits.append, rng=random.Random(7))
    sheets_fake.fail_next(6, 503)

    client.http_client.values_batch_get(club, ["Results!A1"])

    ceilings = [1.0, 2.0, 4.0, 8.0, 8.0, 8.0]
    assert len(waits) == len(ceilings)
    for wait, ceiling in zip(waits, ceilings, strict=True):
        assert ceiling / 2 <= wait <= ceiling
    assert len(set(waits)) == len(waits)


def test_when_retries_run_out_the_error_names_the_spreadsheet_and_the_failure(
    sheets_fake: SheetsFake, client: SheetsClient, club: str
) -> None:
    sheets_fake.fail_for(60, 503)

    with pytest.raises(SheetsUnavailableError) as exhausted:
        client.http_client.values_batch_get(club, ["Results!A1"])

    message = str(exhausted.value)
    assert f"spreadsheets.values.batchGet on spreadsheet {club}" in message
    assert "after 4 tries" in message
    assert "503 UNAVAILABLE: The service is currently unavailable." in message
    assert exhausted.value.status == 503
    assert sheets_fake.call_count(club) == 4


def test_quota_exhaustion_is_reported_as_such(
    sheets_fake: SheetsFake, client: SheetsClient, club: str
) -> None:
    sheets_fake.fail_for(60, 429)

    with pytest.raises(SheetsUnavailableError, match="429 RESOURCE_EXHAUSTED: Quota exceeded"):
        client.http_client.values_batch_get(club, ["Results!A1"])


def test_a_slow_answer_times_out_and_is_retried(
    sheets_fake: SheetsFake, sheets_settings: SheetsSettings, club: str
) -> None:
    client = open_client(_settings(sheets_settings, timeout=0.3))
    sheets_fake.slow_next(1, delay=2.0, operation=Op.VALUES_BATCH_GET)

    answer = client.http_client.values_batch_get(club, ["Results!B2"])

    assert answer["valueRanges"][0]["values"] == [["Ada Lovelace"]]


def test_answers_that_never_come_in_time_end_in_a_timeout_error(
    sheets_fake: SheetsFake, sheets_settings: SheetsSettings, club: str
) -> None:
    client = open_client(_settings(sheets_settings, timeout=0.2, retries=1))
    sheets_fake.slow_next(5, delay=10.0)

    started = time.monotonic()
    with pytest.raises(SheetsTimeoutError) as timed_out:
        client.http_client.values_batch_get(club, ["Results!A1"])

    # Two tries of 0.2 s and the wait between them; waiting for any answer would take 10 s.
    assert time.monotonic() - started < 5.0
    assert f"on spreadsheet {club} after 2 tries" in str(timed_out.value)
    assert "no answer within 0.2 s" in str(timed_out.value)


def test_a_write_that_timed_out_is_not_sent_again(
    sheets_fake: SheetsFake, sheets_settings: SheetsSettings, club: str
) -> None:
    client = open_client(_settings(sheets_settings, timeout=0.2))
    sheets_fake.slow_next(1, delay=1.0, operation=Op.BATCH_UPDATE)

    with pytest.raises(SheetsTimeoutError, match="may or may not have been made"):
        client.http_client.batch_update(club, {"requests": _standings_batch(777)})

    assert sheets_fake.call_count(club, operation=Op.BATCH_UPDATE) == 1


def test_an_unreachable_api_is_retried_even_for_writes_then_reported(
    sheets_fake: SheetsFake, client: SheetsClient, club: str
) -> None:
    client.http_client.values_batch_get(club, ["Results!A1"])
    sheets_fake.stop()

    with pytest.raises(SheetsUnavailableError) as unreachable:
        client.http_client.batch_update(club, {"requests": _standings_batch(777)})

    assert "spreadsheets.batchUpdate" in str(unreachable.value)
    assert "after 4 tries" in str(unreachable.value)
    assert "the connection failed" in str(unreachable.value)


# --------------------------------------------------------------------------- counting and quotas


def test_calls_are_counted_per_spreadsheet_kind_and_method(
    sheets_fake: SheetsFake,
    service_account_file: ServiceAccountKey,
    client: SheetsClient,
    club: str,
) -> None:
    other = sheets_fake.create_spreadsheet("Other", shared_with=[service_account_file.email])

    spreadsheet = client.open_spreadsheet(club)
    spreadsheet.values_batch_get(["Results", "Players"])
    spreadsheet.batch_update({"requests": _standings_batch(777)})
    client.open_spreadsheet(other)

    assert sheets_fake.call_count(club) == 3
    assert sheets_fake.call_count(club, kind="read") == 2
    assert sheets_fake.call_count(club, kind="write") == 1
    assert sheets_fake.call_count(club, operation=Op.GET) == 1
    assert sheets_fake.call_count(other) == 1
    assert sheets_fake.call_count(user=service_account_file.email) == 4
    assert sheets_fake.max_calls_in_any_minute(service_account_file.email, kind="read") == 3


def test_per_user_quotas_answer_429_until_the_minute_has_passed(tmp_path: Path) -> None:
    clock = ManualClock()
    with SheetsFake(clock=clock) as fake:
        key = generate_service_account(fake, tmp_path)
        sheet_id = fake.create_spreadsheet(
            "Quota", {"Results": CROSSTABLE}, shared_with=[key.email]
        )
        settings = SheetsSettings(
            google_application_credentials=key.path,
            api_base=fake.base_url,
            retries=0,
        )
        client = open_client(settings)
        fake.enforce_quotas(reads_per_minute=3, writes_per_minute=60)

        for _ in range(3):
            client.http_client.values_batch_get(sheet_id, ["Results!A1"])
        with pytest.raises(SheetsUnavailableError, match="Read requests per minute per user"):
            client.http_client.values_batch_get(sheet_id, ["Results!A1"])
        client.http_client.values_update(
            sheet_id, "Results!F1", params={"valueInputOption": "RAW"}, body={"values": [["w"]]}
        )
        clock.advance(60.5)
        client.http_client.values_batch_get(sheet_id, ["Results!A1"])

        assert [call.status for call in fake.calls(kind="read")] == [200, 200, 200, 429, 200]
        assert fake.max_calls_in_any_minute(key.email, kind="read") == 3
        assert fake.calls_per_minute(key.email, kind="read") == {16666: 3, 16667: 1}


def test_a_hook_lets_a_td_edit_land_between_the_workers_read_and_write(
    sheets_fake: SheetsFake, client: SheetsClient, club: str
) -> None:
    sheets_fake.before_call(
        lambda fake: fake.set_values(club, "Results!E3", [["W3"]]), kind="write"
    )
    seen = client.http_client.values_batch_get(club, ["Results!E3"])["valueRanges"][0]["values"]

    client.http_client.values_update(
        club, "Results!G1", params={"valueInputOption": "RAW"}, body={"values": [["synced"]]}
    )

    assert seen == [["B"]]
    assert sheets_fake.values(club, "Results!E3") == [["W3"]]
    assert sheets_fake.call_count(club) == 2


# --------------------------------------------------------------------------- settings and secrets


def test_settings_come_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GOOGLE_APPLICATION_CREDENTIALS", "/etc/harkness/key.json")
    monkeypatch.setenv("HARKNESS_SHEETS_API_BASE", "http://127.0.0.1:9/proxy/")
    monkeypatch.setenv("HARKNESS_SHEETS_TIMEOUT", "7.5")
    monkeypatch.setenv("HARKNESS_SHEETS_RETRIES", "2")

    settings = SheetsSettings()

    assert settings.google_application_credentials == Path("/etc/harkness/key.json")
    assert settings.api_base == "http://127.0.0.1:9/proxy"
    assert (settings.timeout, settings.retries) == (7.5, 2)


def test_open_client_without_arguments_reads_the_environment(
    sheets_env: dict[str, str], sheets_fake: SheetsFake, club: str
) -> None:
    client = open_client()

    client.http_client.values_batch_get(club, ["Results!A1"])

    assert sheets_env["HARKNESS_SHEETS_API_BASE"] == sheets_fake.base_url
    assert client.http_client.timeout == 2.0
    assert sheets_fake.call_count(club) == 1


def test_the_default_api_base_is_googles(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("HARKNESS_SHEETS_API_BASE", raising=False)

    assert SheetsSettings().api_base == "https://sheets.googleapis.com"


def test_a_missing_or_unusable_key_file_is_a_configuration_error(
    tmp_path: Path, sheets_settings: SheetsSettings
) -> None:
    not_json = tmp_path / "key.json"
    not_json.write_text("-----BEGIN PRIVATE KEY-----\nMIIEvQ...\n-----END PRIVATE KEY-----\n")
    user_key = tmp_path / "user.json"
    user_key.write_text(json.dumps({"type": "authorized_user", "refresh_token": "1//secret"}))

    with pytest.raises(SheetsConfigError, match="GOOGLE_APPLICATION_CREDENTIALS is not set"):
        open_client(_settings(sheets_settings, google_application_credentials=None))
    with pytest.raises(SheetsConfigError, match="No such file"):
        open_client(_settings(sheets_settings, google_application_credentials=tmp_path / "nope"))
    with pytest.raises(SheetsConfigError, match="is not JSON") as garbled:
        open_client(_settings(sheets_settings, google_application_credentials=not_json))
    with pytest.raises(SheetsConfigError, match="not a service-account key file") as wrong_kind:
        open_client(_settings(sheets_settings, google_application_credentials=user_key))

    assert "MIIEvQ" not in str(garbled.value)
    assert "1//secret" not in str(wrong_kind.value)


def test_key_material_and_tokens_never_appear_in_errors_or_logs(
    sheets_fake: SheetsFake,
    sheets_settings: SheetsSettings,
    service_account_file: ServiceAccountKey,
    tmp_path: Path,
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.DEBUG)
    private = sheets_fake.create_spreadsheet("Private", {"Results": CROSSTABLE})
    flaky = sheets_fake.create_spreadsheet(
        "Flaky", {"Results": CROSSTABLE}, shared_with=[service_account_file.email]
    )
    unknown = generate_service_account(
        sheets_fake, tmp_path, email="old@harkness-test.iam.gserviceaccount.com", register=False
    )
    client = open_client(sheets_settings)
    messages: list[str] = []

    with pytest.raises(SheetsPermissionError) as denied:
        client.open_spreadsheet(private)
    messages.append(str(denied.value))
    sheets_fake.fail_for(60, 500, spreadsheet_id=flaky)
    with pytest.raises(SheetsUnavailableError) as exhausted:
        client.http_client.values_batch_get(flaky, ["Results"])
    messages.append(str(exhausted.value))
    stranger = open_client(_settings(sheets_settings, google_application_credentials=unknown.path))
    with pytest.raises(SheetsAuthError) as refused:
        stranger.open_spreadsheet(flaky)
    messages.append(str(refused.value))

    secrets = [
        line
        for key in (service_account_file, unknown)
        for line in key.private_key_pem.decode("ascii").splitlines()
        if "PRIVATE KEY" not in line
    ] + sheets_fake.issued_access_tokens
    assert secrets
    for text in [*messages, caplog.text]:
        for secret in secrets:
            assert secret not in text


def test_describe_call_names_the_api_method_of_gspread_urls() -> None:
    assert describe_call("PUT", "/v4/spreadsheets/abc/values/%27R%27%21A1").operation == (
        "spreadsheets.values.update"
    )
    assert describe_call("POST", "/v4/spreadsheets/abc/values/%27R%27:append").operation == (
        "spreadsheets.values.append"
    )
    assert describe_call("POST", "/v4/spreadsheets/abc/values/%27R%27:append").idempotent is False
    assert describe_call("POST", "/v4/spreadsheets/abc/values:batchUpdate").idempotent is True


def test_the_retry_policy_caps_every_wait() -> None:
    policy = RetryPolicy(retries=10, initial=0.5, maximum=4.0)
    rng = random.Random(1)

    waits = [policy.backoff(attempt, rng) for attempt in range(10)]

    assert max(waits) <= 4.0
    assert waits[0] <= 0.5
