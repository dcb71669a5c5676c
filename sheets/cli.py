"""The ``harkness-sheets`` command: sync Google Sheets with standings, once or continuously.

::

    harkness-sheets sync SPREADSHEET [SPREADSHEET ...]   # ID or URL, once each
    harkness-sheets watch --config sheets.toml            # poll the listed sheets
    harkness-sheets serve --config sheets.toml            # the Apps Script add-on's endpoint
    harkness-sheets pair SPREADSHEET                      # pair the next round (Pairings Rd N)
    harkness-sheets revoke SPREADSHEET                    # withdraw the add-on's key of a sheet

Settings come from the environment (``sheets.settings``): ``GOOGLE_APPLICATION_CREDENTIALS``
names the service account's key file, ``HARKNESS_SHEETS_API_BASE`` the API (for a proxy),
and so on.

Exit status of ``sync``: 0 when every sheet synced without problems, 2 when a sheet has
problems (each is on its Errors tab and printed here) or an option is wrong, 1 when a sheet
could not be synced at all (not shared with the service account, Google unreachable…).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import os
import signal
import sys
import threading
from collections.abc import Sequence

from pydantic import ValidationError

from sheets import metrics
from sheets.client import SheetsClient, SheetsError, open_client, spreadsheet_id
from sheets.settings import SheetsSettings
from sheets.sync import sync
from sheets.watch import WatchConfig, WatchConfigError, Watcher, load_config

EXIT_OK, EXIT_FAILED, EXIT_INPUT = 0, 1, 2


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="harkness-sheets",
        description="Keep the standings of chess tournaments kept in Google Sheets current.",
    )
    parser.add_argument(
        "-v", "--verbose", action="count", default=0, help="say more (-vv: every API retry)"
    )
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    once = commands.add_parser("sync", help="sync spreadsheets once")
    once.add_argument(
        "spreadsheets", nargs="+", metavar="SPREADSHEET", help="spreadsheet ID or URL"
    )
    pair = commands.add_parser(
        "pair",
        help="pair the next round by the FIDE Dutch system into a 'Pairings Rd N' tab "
        "(needs harkness[pairing])",
    )
    pair.add_argument("spreadsheet", metavar="SPREADSHEET", help="spreadsheet ID or URL")
    revoke = commands.add_parser(
        "revoke",
        help="withdraw the add-on's key of a spreadsheet: removed from the sheet and from "
        "the database (its editors connect it again with a new key)",
    )
    revoke.add_argument("spreadsheet", metavar="SPREADSHEET", help="spreadsheet ID or URL")
    watch = commands.add_parser("watch", help="poll the spreadsheets of a config file")
    _config_argument(
        watch,
        "TOML file listing the spreadsheets (default: HARKNESS_SHEETS_CONFIG; see sheets/watch.py)",
    )
    serve = commands.add_parser("serve", help="run the endpoint the Apps Script add-on calls")
    _config_argument(
        serve,
        "accept only the spreadsheets listed in this TOML file "
        "(default: HARKNESS_SHEETS_CONFIG, if set)",
    )
    serve.add_argument(
        "--host",
        help="address to listen on (default HARKNESS_SHEETS_HOST or "
        "127.0.0.1; put a TLS proxy in front)",
    )
    serve.add_argument("--port", type=int, help="port (default HARKNESS_SHEETS_PORT or 8080)")
    serve.add_argument(
        "--debounce",
        type=float,
        metavar="SECONDS",
        help="sync this long after the last edit (default 5)",
    )
    serve.add_argument(
        "--max-wait",
        type=float,
        metavar="SECONDS",
        help="but no later than this after the first edit (default 30)",
    )
    return parser


def _config_argument(command: argparse.ArgumentParser, description: str) -> None:
    """The ``--config PATH`` option (the TOML file of spreadsheets) of ``watch`` and ``serve``."""
    command.add_argument("--config", metavar="PATH", help=description)


def _settings() -> SheetsSettings:
    try:
        return SheetsSettings()
    except ValidationError as error:
        # Name the setting and the problem, never the value (it may be a secret).
        lines = [
            f"{'.'.join(map(str, e['loc'])) or 'settings'}: {e['msg']}"
            for e in error.errors(include_input=False)
        ]
        raise SheetsError(
            "the settings in the environment are not usable:\n  " + "\n  ".join(lines)
        ) from None


def _run_sync(client: SheetsClient, keys: Sequence[str]) -> int:
    status = EXIT_OK
    for key in keys:
        try:
            result = sync(client, key)
        except SheetsError as error:
            print(f"{key}: {error}", file=sys.stderr)
            status = EXIT_FAILED
            continue
        print(result.summary)
        for problem in result.problems:
            print(f"  {problem}", file=sys.stderr)
        if result.problems and status == EXIT_OK:
            status = EXIT_INPUT
    return status


def _run_pair(client: SheetsClient, key: str) -> int:
    from sheets.pairing import pair_sheet

    try:
        result = pair_sheet(client, key)
    except SheetsError as error:
        print(f"{key}: {error}", file=sys.stderr)
        return EXIT_FAILED
    print(result.summary)
    for problem in result.problems:
        print(f"  {problem}", file=sys.stderr)
    return EXIT_INPUT if result.problems else EXIT_OK


def _run_revoke(client: SheetsClient, settings: SheetsSettings, key: str) -> int:
    """Withdraw a sheet's add-on keys (every editor's): their hashes leave the sheet (so the
    keys cannot connect again) and the database (so no ``serve`` process accepts them)."""
    from sheets.addon_keys import remove_commitment

    try:
        removed = remove_commitment(client, key)
    except SheetsError as error:
        print(f"{key}: {error}", file=sys.stderr)
        return EXIT_FAILED
    print(
        f"{key}: the add-on's keys were removed from the sheet ({removed})"
        if removed
        else f"{key}: the sheet held no add-on key"
    )
    from sheets.jobs import DatabaseUnavailable, durable_fleet

    async def forget() -> bool:
        async with durable_fleet(settings.database_url, what="the add-on's keys") as fleet:
            if fleet is None:
                return False
            await fleet.keep_addon_keys(key, ())
            return True

    try:
        shared = asyncio.run(forget())
    except DatabaseUnavailable as error:
        print(f"harkness-sheets revoke: {error}", file=sys.stderr)
        return EXIT_INPUT
    if shared:
        print(f"{key}: no serve process on the database accepts its keys any more")
    else:
        print(
            f"{key}: without a database each serve process keeps its keys in memory: restart "
            "serve so that it forgets them"
        )
    print(f"{key}: its editors connect it again with Harkness → Connect this sheet")
    return EXIT_OK


def _stop_on_signals() -> asyncio.Event:
    """An event set by SIGINT or SIGTERM (on the running event loop)."""
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(NotImplementedError):
            loop.add_signal_handler(sig, stop.set)
    return stop


def _run_watch(client: SheetsClient, config: WatchConfig, settings: SheetsSettings) -> int:
    watcher = Watcher(client, config, config.poll_interval or settings.poll_interval)
    url = settings.database_url
    if url is None or url.strip().startswith("sqlite"):  # one process, paced by itself
        stop = threading.Event()
        for name in ("SIGINT", "SIGTERM"):
            signal.signal(getattr(signal, name), lambda *_: stop.set())
        watcher.run(stop)
        return EXIT_OK
    from sheets.jobs import DatabaseUnavailable, durable_fleet
    from sheets.shared_watch import AnotherWatch, run_shared

    async def main() -> None:
        stop = _stop_on_signals()
        async with durable_fleet(url, what="the watch's budget and leases") as fleet:
            assert fleet is not None
            await run_shared(watcher, fleet, client.service_account_email, settings.quota, stop)

    try:
        asyncio.run(main())
    except (DatabaseUnavailable, AnotherWatch) as error:
        print(f"harkness-sheets watch: {error}", file=sys.stderr)
        return EXIT_INPUT
    return EXIT_OK


def _run_serve(
    client: SheetsClient,
    settings: SheetsSettings,
    args: argparse.Namespace,
    config: WatchConfig | None,
) -> int:
    from sheets.addon_keys import FleetKeys, KeyStore, MemoryKeys, read_commitment
    from sheets.fleet import process_name
    from sheets.gate import Gate
    from sheets.jobs import DatabaseUnavailable, DurableSyncQueue, durable_fleet
    from sheets.pairing import pair_answer
    from sheets.serve import Queue, SyncQueue, make_app, serve
    from sheets.turns import Turns

    if os.environ.get("HARKNESS_SHEETS_WEBHOOK_SECRET"):
        print(
            "harkness-sheets serve: HARKNESS_SHEETS_WEBHOOK_SECRET is no longer used (each "
            "sheet connects with its own key: see sheets/README.md, 'The add-on'); remove it",
            file=sys.stderr,
        )
    debounce = settings.debounce if args.debounce is None else args.debounce
    max_wait = settings.max_wait if args.max_wait is None else args.max_wait
    pace = config.syncs_per_minute if config else 50.0
    allowed = {s.spreadsheet_id for s in config.sheets} if config else None

    async def main() -> None:
        stop = _stop_on_signals()
        async with durable_fleet(settings.database_url, what="the sync queue") as fleet:
            queue: Queue
            keys: KeyStore
            quota = settings.quota
            account = client.service_account_email
            if fleet is None:
                # One process: its syncs, pairings and connects spend from its own budget.
                turns = Turns(account, quota)
                keys = MemoryKeys()
                queue = SyncQueue(
                    lambda key: sync(client, key),
                    debounce=debounce,
                    max_wait=max_wait,
                    syncs_per_minute=pace,
                    turns=turns,
                )
            else:
                # Every process: one budget, one writer per sheet (the fleet's leases).
                turns = Turns(
                    account,
                    quota,
                    budgets=fleet,
                    fleet=fleet,
                    holder=process_name("harkness-sheets"),
                )
                keys = FleetKeys(fleet)
                queue = DurableSyncQueue(
                    fleet,
                    lambda key: sync(client, key),
                    debounce=debounce,
                    max_wait=max_wait,
                    # The account's budget, shared by every process, sets the pace.
                    syncs_per_minute=quota.syncs_per_minute,
                    account=client.service_account_email,
                    reads_per_minute=quota.reads_budget,
                    writes_per_minute=quota.writes_budget,
                    quota_window=quota.window,
                    quota_hold=quota.hold,
                )
            gate = Gate(
                keys,
                lambda key: read_commitment(client, key),
                allowed,
                share_with=account,
                turns=turns,
            )
            app = make_app(
                queue,
                gate,
                pair=lambda key, vouched: pair_answer(client, key, vouched),
                trusted_proxies=settings.proxies,
            )
            await serve(
                app,
                args.host or settings.host,
                settings.port if args.port is None else args.port,
                stop,
            )

    try:
        asyncio.run(main())
    except DatabaseUnavailable as error:
        print(f"harkness-sheets serve: {error}", file=sys.stderr)
        return EXIT_INPUT
    return EXIT_OK


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``harkness-sheets``; answers the exit status."""
    args = _parser().parse_args(argv)
    quiet = args.command in ("sync", "pair", "revoke")
    level = logging.WARNING if args.verbose == 0 and quiet else logging.INFO
    if args.verbose >= 2:
        level = logging.DEBUG
    logging.basicConfig(level=level, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    try:
        settings = _settings()
        client = open_client(settings)
    except SheetsError as error:
        print(f"harkness-sheets: {error}", file=sys.stderr)
        return EXIT_INPUT
    config_path = getattr(args, "config", None) or settings.config
    if args.command == "watch" and config_path is None:
        print(
            "harkness-sheets watch: give --config PATH (or set HARKNESS_SHEETS_CONFIG): a TOML "
            "file listing the spreadsheets",
            file=sys.stderr,
        )
        return EXIT_INPUT
    try:
        config = (
            load_config(config_path)
            if config_path and args.command not in ("sync", "pair", "revoke")
            else None
        )
    except WatchConfigError as error:
        print(error, file=sys.stderr)
        return EXIT_INPUT
    if args.command == "sync":
        # The command prints each sheet's summary and problems itself, once.
        report = logging.getLogger("sheets.sync.report")
        level = report.level
        report.setLevel(logging.CRITICAL)
        try:
            return _run_sync(client, args.spreadsheets)
        finally:
            report.setLevel(level)
    if args.command == "pair":
        return _run_pair(client, args.spreadsheet)
    if args.command == "revoke":
        return _run_revoke(client, settings, spreadsheet_id(args.spreadsheet))
    try:
        metrics.expose()
    except ValueError as error:
        print(f"harkness-sheets: {error}", file=sys.stderr)
        return EXIT_INPUT
    if args.command == "watch":
        assert config is not None
        return _run_watch(client, config, settings)
    return _run_serve(client, settings, args, config)


if __name__ == "__main__":
    sys.exit(main())
