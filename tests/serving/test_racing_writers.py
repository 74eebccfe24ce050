"""Versions stay a compare-and-set across processes: two production servers (2 workers x 4 threads
each, so four processes) on one database, eight phones saving on the same version at the same moment,
round after round. Exactly one save wins each version; every other one gets a 409 with the winner's
table; the history holds every winner, in order, with no gap. Both databases."""
from __future__ import annotations

import threading

from serving.servers import ForkedServer, Http, full_history

PHONES = 8
ROUNDS = 25


def test_racing_writers_on_several_processes_exactly_one_wins_each_version(db_url, tmp_path):
    servers = [ForkedServer(db_url, tmp_path / f"instance{n}", workers=2, threads=4).start() for n in range(2)]
    try:
        status, table, _ = Http(servers[0].url).request("POST", "/api/tables", {"game": "robotariat", "players": 3})
        assert status == 201
        path = f"/api/tables/{table['id']}"
        clients = [Http(servers[i % 2].url) for i in range(PHONES)]  # half the phones on each server
        barrier = threading.Barrier(PHONES)
        winners = []

        def save(i: int, version: int, round_: int, results: dict) -> None:
            barrier.wait(10)
            status, body, _ = clients[i].request("PUT", path, {"version": version, "state": {"phone": i,
                                                                                            "round": round_}})
            results[i] = (status, body)

        for round_ in range(ROUNDS):
            version = round_ + 1
            results: dict[int, tuple] = {}
            threads = [threading.Thread(target=save, args=(i, version, round_, results)) for i in range(PHONES)]
            for t in threads:
                t.start()
            for t in threads:
                t.join(30)
            statuses = sorted(s for s, _ in results.values())
            assert statuses == [200] + [409] * (PHONES - 1), f"round {round_}: {statuses}"
            winner = next(i for i, (s, _) in results.items() if s == 200)
            assert results[winner][1]["version"] == version + 1
            for s, body in results.values():
                if s == 409:  # the loser is shown what won, so it can apply its change on top
                    assert body["table"]["version"] == version + 1
                    assert body["table"]["state"] == {"phone": winner, "round": round_}
            winners.append({"phone": winner, "round": round_})
        history = {"versions": full_history(Http(servers[1].url), path.rsplit("/", 1)[1])}
        assert [v["version"] for v in history["versions"]] == list(range(1, ROUNDS + 2))
        assert [v["state"] for v in history["versions"]] == [{}] + winners
    finally:
        for s in servers:
            s.close()
