"""`tablebot` console script: start the app (embedded SQLite by default)."""
from __future__ import annotations

import argparse
import os


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="tablebot", description="Start the Tablebot web app.")
    parser.add_argument("--host", default=os.environ.get("HOST", "127.0.0.1"),
                        help="address to listen on (0.0.0.0 to reach it from phones on your Wi-Fi)")
    parser.add_argument("--port", type=int, default=int(os.environ.get("PORT", "5000")))
    parser.add_argument("--debug", action="store_true")
    args = parser.parse_args(argv)

    from . import create_app

    app = create_app()
    print(f"Tablebot on http://{args.host}:{args.port}/  (data: {app.config['DATABASE_URL']})")
    app.run(host=args.host, port=args.port, debug=args.debug, threaded=True)


if __name__ == "__main__":
    main()
