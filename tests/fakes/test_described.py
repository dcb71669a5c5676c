"""The fakes accept only what the providers' own API descriptions allow.

``tests.fakes.schema_check`` checks a value against a description's schema; the Discord fake
holds every request to Discord's OpenAPI description (``discord_fake/spec.py``), the Sheets
fake to the Sheets API's discovery document (``sheets/spec.py``). Each refusal is worded as
the provider words it: Discord's ``50035 Invalid Form Body`` with its nested ``errors``,
Google's ``400 INVALID_ARGUMENT`` naming the field. The rest of the suite passing through the
checking fakes is the proof that every request of ours and of the libraries is described.
"""

from __future__ import annotations

import re
from typing import Any

import discord
import pytest
from aiohttp import web
from discord.ext import commands
from discord.http import Route

from sheets.client import SheetsClient, SheetsRequestError, open_client
from sheets.settings import SheetsSettings
from sheets.write import FILLS, HEADER_FORMAT
from tests.fakes.discord_api import DiscordFake, DiscordLimitError, ViolationKind
from tests.fakes.discord_fake import spec as discord_spec
from tests.fakes.discord_fake.limits import form_errors
from tests.fakes.discord_fixtures import BotRunner
from tests.fakes.schema_check import Issue, Schemas
from tests.fakes.sheets import spec as sheets_spec
from tests.fakes.sheets_api import ServiceAccountKey, SheetsFake

Json = dict[str, Any]

# --------------------------------------------------------------------------- the checker

SCHEMAS: dict[str, Json] = {
    "Player": {
        "type": "object",
        "properties": {
            "name": {"type": "string", "minLength": 1, "maxLength": 5},
            "colour": {"type": "string", "enum": ["WHITE", "BLACK"]},
            "rating": {"type": ["integer", "null"], "minimum": 0, "format": "int32"},
            "games": {"type": "string", "format": "int64"},
            "tags": {"type": "array", "items": {"type": "string"}, "maxItems": 2},
            "notes": {"type": "object", "additionalProperties": {"type": "string"}},
            "shade": {"$ref": "Colour", "deprecated": True, "description": "Use shadeStyle."},
        },
        "required": ["name"],
    },
    "Colour": {"type": "object", "properties": {"red": {"type": "number"}}},
    "Move": {"type": "object", "properties": {"kind": {"type": "integer", "enum": [1]}}},
    "Resign": {
        "type": "object",
        "properties": {"kind": {"type": "integer", "enum": [2]}, "why": {"type": "string"}},
    },
}


def check(schema: Json, value: Any) -> list[Issue]:
    return Schemas(SCHEMAS.__getitem__).check(schema, value)


def kinds(issues: list[Issue]) -> list[tuple[tuple[str | int, ...], str]]:
    return [(issue.path, issue.kind) for issue in issues]


def test_a_value_that_fits_its_schema_has_no_issue() -> None:
    player = {"name": "Ada", "colour": "WHITE", "rating": None, "games": "12", "tags": ["a"]}
    assert check({"$ref": "Player"}, {**player, "notes": {"r1": "late"}}) == []


def test_each_way_a_value_breaks_its_schema_is_found_where_it_is() -> None:
    issues = check(
        {"$ref": "Player"},
        {
            "nmae": "Ada",
            "colour": "GREEN",
            "rating": "1850",
            "games": "many",
            "tags": ["a", "b", "c"],
            "notes": {"r1": 5},
        },
    )
    assert kinds(issues) == [
        (("name",), "required"),
        ((), "unknown"),
        (("colour",), "choices"),
        (("rating",), "type"),
        (("games",), "type"),
        (("tags",), "max_items"),
        (("notes", "r1"), "type"),
    ]
    assert issues[1].limit == "nmae"
    assert issues[2].limit == ("WHITE", "BLACK")


def test_lengths_bounds_and_integer_formats_are_limits() -> None:
    player = {"$ref": "Player"}
    assert kinds(check(player, {"name": "Magnus"})) == [(("name",), "max_length")]
    assert kinds(check(player, {"name": ""})) == [(("name",), "min_length")]
    assert kinds(check(player, {"name": "A", "rating": -1})) == [(("rating",), "minimum")]
    assert kinds(check(player, {"name": "A", "rating": 2**31})) == [(("rating",), "maximum")]
    assert check(player, {"name": "A", "games": 12}) == []  # an int64 may be a number too
    assert kinds(check(player, {"name": "A", "games": str(2**63)})) == [(("games",), "maximum")]


def test_a_deprecated_field_is_an_issue_of_its_own() -> None:
    issues = check({"$ref": "Player"}, {"name": "A", "shade": {"red": 1}})
    assert kinds(issues) == [(("shade",), "deprecated")]
    assert issues[0].limit == "Use shadeStyle."


def test_all_of_merges_the_fields_its_parts_list() -> None:
    both = {"allOf": [{"$ref": "Colour"}, {"type": "object", "properties": {"alpha": {}}}]}
    assert check(both, {"red": 1, "alpha": 0.5}) == []
    assert kinds(check(both, {"red": 1, "blue": 0})) == [((), "unknown")]


def test_null_passes_only_where_the_schema_allows_it_unless_null_means_default() -> None:
    colour = {"$ref": "Colour"}
    assert kinds(check(colour, {"red": None})) == [(("red",), "type")]
    proto3 = Schemas(SCHEMAS.__getitem__, null_is_default=True)
    assert proto3.check(colour, {"red": None}) == []


def test_a_union_reports_the_alternative_that_fits_best() -> None:
    move = {"oneOf": [{"type": "null"}, {"$ref": "Move"}, {"$ref": "Resign"}]}
    assert check(move, None) == []
    assert check(move, {"kind": 2, "why": "lost"}) == []
    # The right alternative (kind 2) is chosen, and its own problem reported.
    assert kinds(check(move, {"kind": 2, "why": 5})) == [(("why",), "type")]
    # No alternative takes kind 3: one issue naming the discriminator and its values.
    (issue,) = check(move, {"kind": 3})
    assert (issue.kind, issue.limit) == ("union", ("kind", (1, 2)))
    # A value none of the alternatives' types take.
    (issue,) = check(move, "e4")
    assert issue.kind == "type"


# --------------------------------------------------------------------------- Discord


def test_discords_answer_names_each_field_in_its_nested_error_shape() -> None:
    checked = discord_spec.check_request(
        "POST",
        "/channels/1/messages",
        {},
        {
            "content": "Round 3",
            "embeds": [{"title": "x" * 257, "colour": 3}],
            "flags": "ephemeral",
            "components": [{"type": 1, "components": [{"type": 2, "style": 9, "label": "Go"}]}],
        },
    )
    assert form_errors(checked.problems) == {
        "embeds": {
            "0": {
                "title": {
                    "_errors": [
                        {
                            "code": "BASE_TYPE_MAX_LENGTH",
                            "message": "Must be 256 or fewer in length.",
                        }
                    ]
                },
                "colour": {
                    "_errors": [
                        {
                            "code": "UNKNOWN_FIELD",
                            "message": '"colour" is not a field in Discord\'s API description '
                            "(Discord would ignore it).",
                        }
                    ]
                },
            }
        },
        "flags": {
            "_errors": [{"code": "NUMBER_TYPE_COERCE", "message": 'Value "ephemeral" is not int.'}]
        },
        "components": {
            "0": {
                "components": {
                    "0": {
                        "style": {
                            "_errors": [
                                {
                                    "code": "BASE_TYPE_CHOICES",
                                    "message": "Value must be one of (1, 2, 3, 4, 5, 6).",
                                }
                            ]
                        }
                    }
                }
            }
        },
    }


def test_a_wrong_callback_type_and_a_query_out_of_range_are_refused() -> None:
    (problem,) = discord_spec.check_request(
        "POST", "/interactions/1/token/callback", {"with_response": "1"}, {"type": 3}
    ).problems
    assert (problem.where, problem.code) == ("(body)", "UNION_TYPE_CHOICES")
    assert problem.message.startswith('Value of field "type" must be one of (1, 4, 5, 6, 7, 8, 9')
    (problem,) = discord_spec.check_request(
        "GET", "/guilds/1/members", {"limit": "5000"}, None
    ).problems
    assert (problem.where, problem.code) == ("limit", "NUMBER_TYPE_MAX")
    assert not discord_spec.check_request(
        "GET", "/guilds/1/members", {"limit": "1000"}, None
    ).problems


def test_documented_exceptions_pass_and_libraries_extras_are_only_tolerated() -> None:
    # Ids as integers and embed flags (both documented); dm_permission beside contexts or at
    # its default, and a false tts on an edit (discord.py's) are let through but recorded.
    checked = discord_spec.check_request(
        "PUT",
        "/applications/1/commands",
        {},
        [{"name": "why", "description": "Explain", "dm_permission": True, "contexts": [0]}],
    )
    assert checked.problems == [] and [p.where for p in checked.tolerated] == ["0.dm_permission"]
    default = [{"name": "why", "description": "Explain", "dm_permission": True}]
    assert not discord_spec.check_request("PUT", "/applications/1/commands", {}, default).problems
    alone = [{"name": "why", "description": "Explain", "dm_permission": False}]
    (problem,) = discord_spec.check_request("PUT", "/applications/1/commands", {}, alone).problems
    assert (problem.where, problem.code) == ("0.dm_permission", "DEPRECATED_FIELD")
    edit = {"content": "x", "tts": False, "embeds": [{"title": "t", "flags": 0}]}
    checked = discord_spec.check_request("PATCH", "/channels/1/messages/2", {}, edit)
    assert checked.problems == [] and [p.where for p in checked.tolerated] == ["tts"]
    loud = discord_spec.check_request("PATCH", "/channels/1/messages/2", {}, {"tts": True})
    assert [p.code for p in loud.problems] == ["UNKNOWN_FIELD"]
    dm = discord_spec.check_request("POST", "/users/@me/channels", {}, {"recipient_id": 42})
    assert dm.problems == []


def _quiet_bot() -> commands.Bot:
    """A bot without commands: the test sends its requests through ``bot.http``."""
    return commands.Bot(command_prefix="!", intents=discord.Intents.default())


async def test_discord_py_gets_discords_answer_and_the_test_fails(
    discord_fake: DiscordFake, run_bot: BotRunner
) -> None:
    bot = await run_bot(_quiet_bot())
    channel = discord_fake.channel("general")
    route = Route("POST", "/channels/{channel_id}/messages", channel_id=channel.id)
    with pytest.raises(discord.HTTPException) as refused:
        await bot.http.request(route, json={"content": "Round 3", "colour": 3})
    assert (refused.value.status, refused.value.code) == (400, 50035)
    assert "In colour: " in str(refused.value)
    with pytest.raises(DiscordLimitError) as caught:
        discord_fake.assert_clean()
    assert caught.value.kinds == {ViolationKind.INVALID_FORM_BODY}
    assert discord_fake.requests[-1].response["errors"]["colour"]["_errors"][0]["code"] == (
        "UNKNOWN_FIELD"
    )


async def test_a_route_discord_does_not_describe_is_not_found(
    discord_fake: DiscordFake, run_bot: BotRunner
) -> None:
    bot = await run_bot(_quiet_bot())
    with pytest.raises(discord.NotFound):
        await bot.http.request(Route("GET", "/channels/{channel_id}/chess", channel_id=1))
    with pytest.raises(DiscordLimitError) as caught:
        discord_fake.assert_clean()
    assert caught.value.kinds == {ViolationKind.NOT_DESCRIBED}


def test_every_route_the_fake_serves_is_in_discords_description() -> None:
    app = web.Application()
    DiscordFake().rest.add_routes(app)
    served = {
        (route.method, route.resource.canonical)
        for route in app.router.routes()
        if route.method != "HEAD"
        and route.resource is not None
        and route.resource.canonical.startswith("/api/v")
    }
    assert len(served) > 20
    for method, canonical in sorted(served):
        path = "/" + canonical.split("/", 3)[3]
        example = re.sub(r"\{[^}]+\}", "1", path)
        assert discord_spec.operation(method, example) is not None, (method, path)


# --------------------------------------------------------------------------- Google Sheets


@pytest.fixture
def club(sheets_fake: SheetsFake, service_account_file: ServiceAccountKey) -> str:
    return sheets_fake.create_spreadsheet(
        "Spring Swiss", {"Results": [["#", "Name"]]}, shared_with=[service_account_file.email]
    )


@pytest.fixture
def client(sheets_settings: SheetsSettings) -> SheetsClient:
    return open_client(sheets_settings)


def _refused(client: SheetsClient, club: str, requests: list[Json]) -> str:
    with pytest.raises(SheetsRequestError) as refused:
        client.open_spreadsheet(club).batch_update({"requests": requests})
    assert refused.value.status == 400
    assert refused.value.google is not None
    assert refused.value.google.startswith("400 INVALID_ARGUMENT: ")
    return refused.value.google


def test_google_refuses_an_unknown_field_naming_where_it_is(
    client: SheetsClient, club: str, sheets_fake: SheetsFake
) -> None:
    message = _refused(
        client, club, [{"addSheet": {"properties": {"title": "Standings", "colour": "red"}}}]
    )
    assert message.endswith(
        'Invalid JSON payload received. Unknown name "colour" at '
        "'requests[0].add_sheet.properties': Cannot find field."
    )
    assert sheets_fake.sheet_titles(club) == ["Results"]


def test_google_refuses_a_wrong_enum_and_a_wrong_type(client: SheetsClient, club: str) -> None:
    message = _refused(
        client,
        club,
        [
            {"addSheet": {"properties": {"title": "S", "sheetType": "TABLE"}}},
            {"appendDimension": {"sheetId": 0, "dimension": "ROWS", "length": "ten"}},
        ],
    )
    assert (
        "Invalid value at 'requests[0].add_sheet.properties.sheet_type' "
        '(type.googleapis.com/google.apps.sheets.v4.SheetType), "TABLE"' in message
    )
    assert "Invalid value at 'requests[1].append_dimension.length' (TYPE_INT32), \"ten\"" in message


def test_google_refuses_a_field_mask_naming_a_missing_field(
    client: SheetsClient, club: str
) -> None:
    message = _refused(
        client,
        club,
        [
            {
                "updateSheetProperties": {
                    "properties": {"sheetId": 0, "gridProperties": {"frozenRowCount": 1}},
                    "fields": "gridProperties.frozenRows",
                }
            }
        ],
    )
    assert message.endswith(
        "Invalid requests[0].updateSheetProperties: Invalid field mask: GridProperties has no "
        'field "frozenRows" (gridProperties.frozenRows)'
    )
    with pytest.raises(SheetsRequestError) as refused:
        client.open_spreadsheet(club).fetch_sheet_metadata({"fields": "sheets(properties(name))"})
    assert refused.value.google is not None
    assert 'SheetProperties has no field "name" (sheets.properties.name)' in refused.value.google


def test_google_refuses_a_cell_longer_than_its_limit(client: SheetsClient, club: str) -> None:
    with pytest.raises(SheetsRequestError) as refused:
        client.open_spreadsheet(club).values_update(
            "Results!A2", {"valueInputOption": "RAW"}, {"values": [["x" * 50_001]]}
        )
    assert refused.value.google is not None
    assert refused.value.google.endswith(
        "Invalid value at 'values[0][0]': Your input contains more than the maximum of 50000 "
        "characters in a single cell."
    )


def test_the_fake_refuses_a_deprecated_field_google_still_takes(
    client: SheetsClient, club: str
) -> None:
    cell = {"userEnteredFormat": {"backgroundColor": {"red": 1}}}
    message = _refused(
        client,
        club,
        [{"repeatCell": {"range": {"sheetId": 0}, "cell": cell, "fields": "userEnteredFormat"}}],
    )
    assert "'requests[0].repeat_cell.cell.user_entered_format.background_color' is deprecated" in (
        message
    )
    assert "Use background_color_style" in message


def test_googles_refusal_is_its_json_error_with_the_field_violations() -> None:
    refused = sheets_spec.refusal(
        "spreadsheets.values.batchGet", {"ranges": ["A1"], "majorDimension": ["ROW"]}, None
    )
    assert refused is not None
    error = refused.body()["error"]
    assert (error["code"], error["status"]) == (400, "INVALID_ARGUMENT")
    assert error["message"] == (
        "Invalid value at 'major_dimension' "
        '(type.googleapis.com/google.apps.sheets.v4.MajorDimension), "ROW"'
    )
    assert error["details"][0]["fieldViolations"][0]["field"] == "majorDimension"
    unknown = sheets_spec.refusal("spreadsheets.get", {"includeGirdData": ["true"]}, None)
    assert unknown is not None and 'Unknown name "includeGirdData"' in unknown.message
    assert sheets_spec.refusal("spreadsheets.get", {"includeGridData": ["true"]}, None) is None


def test_the_workers_cell_formats_use_no_deprecated_field() -> None:
    cell_format = {"$ref": "CellFormat"}
    for fmt in [HEADER_FORMAT, *FILLS.values()]:
        assert sheets_spec.schemas().check(cell_format, fmt) == []
