"""Private fields in the refetch header: read like query parameters for that answer only, never in
the address (see web/private.py)."""
from __future__ import annotations

from flask import request

from assistant.web import private


def _values(app, method="GET", path="/robotariat/", header=None):
    headers = {private.HEADER: header} if header is not None else {}
    with app.test_request_context(path, method=method, headers=headers):
        private._merge_private_header()
        return request.values.to_dict(flat=False)


def test_a_get_reads_the_private_header_as_parameters(app):
    assert _values(app, header="_seat=0&_objective=bursar") == {"_seat": ["0"], "_objective": ["bursar"]}


def test_the_address_wins_and_other_methods_or_huge_headers_are_left_alone(app):
    assert _values(app, path="/robotariat/?_seat=2", header="_seat=0&_objective=bursar") == {
        "_seat": ["2"], "_objective": ["bursar"]}
    assert _values(app, method="POST", header="_objective=bursar") == {}
    assert _values(app, header="_objective=" + "x" * 5000) == {}


def test_the_board_page_weighs_an_objective_sent_in_the_header(client, new_table):
    tid = new_table("robotariat", players=4)["id"]
    plain = client.get(f"/robotariat/?table={tid}").get_data(as_text=True)
    mine = client.get(f"/robotariat/?table={tid}",
                      headers={private.HEADER: "_seat=0&_objective=bursar"}).get_data(as_text=True)
    assert '<option value="bursar">' in plain
    assert '<option value="bursar" selected>' in mine and '<option value="0" selected>' in mine
    history = client.get(f"/api/tables/{tid}/history").get_data(as_text=True)
    assert "bursar" not in history
