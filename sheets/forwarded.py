"""Who is calling ``serve``: the caller's address behind a trusted reverse proxy.

Behind a reverse proxy (Caddy in ``deploy/``) every request reaches ``serve`` from the
proxy's address. The proxy names the address it was called from in ``X-Forwarded-For``,
appended to the right of what was there (or in place of it: Caddy keeps nothing a caller
sent). That header is believed only when the request comes from a trusted proxy
(``HARKNESS_SHEETS_TRUSTED_PROXIES``), and it is read from the right, the end the trusted
proxies wrote: the caller is the right-most address that is not a trusted proxy. Whatever
stands to its left was written by the caller and is ignored, so sending the header yourself,
directly or through the proxy, changes nothing.

No proxy is trusted unless named: any process on the host can connect over loopback, so
even ``127.0.0.1`` is believed only when the setting names it (the systemd recipe does, for
a Caddy on the same host; compose names Caddy's fixed address on its own network).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from ipaddress import IPv4Address, IPv4Network, IPv6Address, IPv6Network, ip_address, ip_network

Network = IPv4Network | IPv6Network

#: The proxies trusted unless ``HARKNESS_SHEETS_TRUSTED_PROXIES`` says otherwise: none.
DEFAULT_TRUSTED_PROXIES = ""


def trusted_networks(text: str) -> tuple[Network, ...]:
    """The addresses and networks named in ``text`` (separated by commas or spaces; empty
    names none).

    >>> trusted_networks("127.0.0.1, ::1 172.31.250.0/29")
    (IPv4Network('127.0.0.1/32'), IPv6Network('::1/128'), IPv4Network('172.31.250.0/29'))
    >>> trusted_networks("")
    ()
    >>> trusted_networks("caddy")
    Traceback (most recent call last):
    ValueError: 'caddy' is not an IP address or network (e.g. 127.0.0.1 or 172.16.0.0/12)
    """
    networks: list[Network] = []
    for item in text.replace(",", " ").split():
        try:
            networks.append(ip_network(item))
        except ValueError as error:
            problem = (
                "is not an IP address or network (e.g. 127.0.0.1 or 172.16.0.0/12)"
                if "host bits" not in str(error)
                else "has bits set beyond its prefix length (write the network's first address)"
            )
            raise ValueError(f"{item[:60]!r} {problem}") from None
    return tuple(networks)


def _address(text: str) -> IPv4Address | IPv6Address | None:
    """An address as a header or socket gives it (``[::1]`` too; an IPv4-mapped IPv6
    address as the IPv4 one), or None when it is not one."""
    text = text.strip()
    if text.startswith("[") and text.endswith("]"):
        text = text[1:-1]
    try:
        address = ip_address(text)
    except ValueError:
        return None
    if isinstance(address, IPv6Address) and address.ipv4_mapped is not None:
        return address.ipv4_mapped
    return address


def client_address(
    peer: str | None, forwarded_for: Iterable[str], trusted: Sequence[Network]
) -> str | None:
    """The caller's address: ``peer`` (the connection's) unless it is a trusted proxy; then
    the right-most address of the ``X-Forwarded-For`` headers (``forwarded_for``, in the
    order received) that is not one. An entry that is not an address ends the walk at the
    last hop a trusted proxy vouched for; when every hop is trusted, the left-most is the
    caller.

    >>> proxies = trusted_networks("127.0.0.1, 10.0.0.0/8")
    >>> client_address("127.0.0.1", ["198.51.100.1, 203.0.113.7"], proxies)
    '203.0.113.7'
    >>> client_address("127.0.0.1", ["203.0.113.7", "10.1.2.3"], proxies)
    '203.0.113.7'
    >>> client_address("192.0.2.9", ["203.0.113.7"], proxies)  # not through a proxy
    '192.0.2.9'
    >>> client_address("127.0.0.1", [], proxies)  # the proxy's own request
    '127.0.0.1'
    >>> client_address("127.0.0.1", ["<script>, 10.1.2.3"], proxies)
    '10.1.2.3'
    """
    hop = _address(peer) if peer is not None else None
    if hop is None or not any(hop in network for network in trusted):
        return peer
    entries = [entry for header in forwarded_for for entry in header.split(",")]
    for entry in reversed(entries):
        if not entry.strip():
            continue
        address = _address(entry)
        if address is None:
            break
        hop = address
        if not any(hop in network for network in trusted):
            break
    return str(hop)
