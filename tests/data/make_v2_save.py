"""How tests/data/v2-emboscada.toml was made (with cdbtui before schema 3, issue 10):

    .venv/bin/python tests/data/make_v2_save.py

The bundled demo fight plus two hidden PNJ: «Ninja», of a faction with parentheses,
who acts and is then removed, and «Sombra», who stays; a visible «Ninja» is added
afterwards with the removed one's name.  Kept as it was written: the migration test
(tests/test_structured_log.py) reads it as an old save.
"""

from pathlib import Path

from cdbtui import store
from cdbtui.engine.session import Session

DEMO = Path(__file__).parents[2] / "cdbtui" / "demo" / "puerto.txt"
LINES = [line.strip() for line in DEMO.read_text("utf-8").splitlines()
         if line.strip() and not line.startswith("#")]
EXTRA = [
    'alta Ninja ac=6 agi=5 momento=5 oculto "bando=Clan (sombra)"',
    "alta Sombra ac=4 agi=1 momento=3 oculto",
]
PLAY = [
    "mike disparar-armas-largas",
    '"soldado 1" ponerse-a-cubierto',
    "ninja esquivar",
    "dano ninja 2",
    "sven disparar-armas-largas",
    '"soldado 2" esquivar',
    "baja ninja",
    "alta Ninja ac=3 bando=pj momento=2",
    "sombra esquivar",
]

if __name__ == "__main__":
    if store.SCHEMA != 2:
        raise SystemExit("this writes a schema-2 save: run it with cdbtui before schema 3")
    session = Session.new()
    for line in [*LINES[:-1], *EXTRA, LINES[-1], *PLAY]:
        session.execute(line)
    target = Path(__file__).parent / "v2-emboscada.toml"
    target.write_text(store.dumps(session), "utf-8")
    print(target)
