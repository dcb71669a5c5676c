"""The add-on's keys every ``serve`` process accepts (``addon_keys``): a sheet's hashes are
replaced all at once, kept per sheet, seen by another process on the database, and forgotten
by an empty set."""

from __future__ import annotations

from sheets.fleet import Fleet

A, B, C = ("a" * 64, "b" * 64, "c" * 64)


async def test_a_sheets_key_hashes_are_replaced_all_at_once(fleet: Fleet, db_url: str) -> None:
    assert await fleet.addon_keys("sheet-1") == frozenset()
    await fleet.keep_addon_keys("sheet-1", {A, B})
    await fleet.keep_addon_keys("sheet-2", {C})
    assert await fleet.addon_keys("sheet-1") == {A, B}
    await fleet.keep_addon_keys("sheet-1", [B, C])  # an editor renewed: A is gone
    async with await Fleet.open(db_url) as other:  # another worker sees the same
        assert await other.addon_keys("sheet-1") == {B, C}
        assert await other.addon_keys("sheet-2") == {C}
    await fleet.keep_addon_keys("sheet-1", ())  # disconnected
    assert await fleet.addon_keys("sheet-1") == frozenset()
    assert await fleet.addon_keys("sheet-2") == {C}
