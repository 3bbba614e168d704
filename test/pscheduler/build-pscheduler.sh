#!/usr/bin/env bash
# Builds a real pScheduler 5.2.x and pSConfig's pScheduler agent from the vendored, unmodified upstream sources
# (vendor/*.tar.gz; NOTICE) into a prefix outside the repository, the way their Makefiles would install them, with
# Debian's Python and PostgreSQL (install-packages.sh first). Nothing is installed outside the prefix.
#
#   build-pscheduler.sh [PREFIX]     default $PSCHEDULER_PREFIX, else /opt/psconfig-vscode-pscheduler
#
# Skips the work when PREFIX/.built names the same tarballs and this script (sha256). Layout of PREFIX:
#   src/            pScheduler source (the tarball's subset of perfsonar/pscheduler)
#   lib/            PYTHONPATH: python-pscheduler, pyjq, pSConfig's `psconfig` package, file_read_backwards
#   classes/        plug-ins: the harness's tests idle, idleex, idlebgm and tools sleep, snooze, sleepbgm (the only
#                   tools of the idle tests, so the scenarios' tool choice is theirs), and from pscheduler-plugins.tar.gz
#                   every other test, tool (but the obsolete bwctl* shims, not in the archive), archiver and context plug-in of the same
#                   commit, plus ping, for pScheduler's own checks of real templates (plugin-checks.ts). The tools'
#                   configuration files (/etc/pscheduler/tool/*.conf on a host) are not installed: only their
#                   enumerate and can-run are used, and neither reads them.
#   bin/, commands/, internals/   the `pscheduler` front end and what it runs (the database calls it)
#   db/             the database build SQL per pscheduler-server/database/Makefile (database name substituted later)
#   api/            the API server package (pschedulerapiserver), its .raw files substituted per instance later
#   psconfig/       pSConfig's source (the agent runs from there)
#   etc/            limits file, a throw-away self-signed certificate for the API's HTTPS
# Changes applied here (never in the tarballs), each said where it is made: the database-name check below.
set -euo pipefail

HERE=$(cd "$(dirname "$0")" && pwd)
PREFIX=${1:-${PSCHEDULER_PREFIX:-/opt/psconfig-vscode-pscheduler}}
PY=/usr/bin/python3 # Debian's: plpython3u and the python3-* packages belong to it (not a pyenv or venv python)
VENDOR=$HERE/vendor

stamp=$(cat "$VENDOR"/*.tar.gz "$VENDOR"/*.COMMIT "$0" "$HERE/limits.json" | sha256sum | cut -d' ' -f1)
if [ -f "$PREFIX/.built" ] && [ "$(cat "$PREFIX/.built")" = "$stamp" ]; then
  echo "build-pscheduler: $PREFIX is up to date"
  exit 0
fi
# Only what this script makes is replaced; the PostgreSQL cluster, instances and agents (pgdata, pgrun, log, inst,
# agent) stay.
rm -rf "$PREFIX"/{src,lib,bin,commands,internals,db,etc,psconfig,classes,api,env.sh,.built}
mkdir -p "$PREFIX"/{src,lib,bin,commands,internals,db,etc,psconfig}
mkdir -p "$PREFIX"/classes/{test,tool,archiver,context}
tar -xzf "$VENDOR/pscheduler-src.tar.gz" --strip-components=1 -C "$PREFIX/src"
# The other plug-in packages of the same commit (a second archive, so the first stays as it was vendored).
tar -xzf "$VENDOR/pscheduler-plugins.tar.gz" --strip-components=1 -C "$PREFIX/src"
tar -xzf "$VENDOR/psconfig-src.tar.gz" --strip-components=1 -C "$PREFIX/psconfig"
SRC=$PREFIX/src

# pyjq 2.4.0, as python-pyjq/ packages it: the upstream tarball plus its two patches, linked to Debian's libjq.
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
tar -xzf "$SRC/python-pyjq/pyjq-2.4.0.tar.gz" -C "$work"
(
  cd "$work/pyjq-2.4.0"
  for p in "$SRC"/python-pyjq/unibuild-packaging/python-pyjq-2.4.0-*.patch; do patch -s -p1 <"$p"; done
  cython3 -3 _pyjq.pyx
  $PY setup.py -q build_ext --inplace >"$work/pyjq.log" 2>&1 || { tail -20 "$work/pyjq.log"; exit 1; }
  cp pyjq.py _pyjq*.so "$PREFIX/lib/"
)

# python-pscheduler: its Makefile substitutes __CLASSES__ (plugins.py) with the plug-in directory.
cp -r "$SRC/python-pscheduler/pscheduler/pscheduler" "$PREFIX/lib/pscheduler"
grep -rl '__CLASSES__' "$PREFIX/lib/pscheduler" | xargs sed -i "s|__CLASSES__|$PREFIX/classes|g"

# Plug-ins: each package's <name>/ directory is what its Makefile installs into classes/<kind>/<name>.
plugin() { # kind name
  cp -r "$SRC/pscheduler-$1-$2/$2" "$PREFIX/classes/$1/$2"
  rm -rf "$PREFIX/classes/$1/$2/unibuild-packaging"
  find "$PREFIX/classes/$1/$2" -maxdepth 1 -type f ! -name '*.py' ! -name LICENSE ! -name Makefile ! -name inputs \
    -exec chmod 755 {} +
}
for t in idle idleex idlebgm rtt; do plugin test "$t"; done
for t in sleep snooze sleepbgm; do plugin tool "$t"; done
# Every other plug-in package the two archives hold (pscheduler-{test,tool,archiver,context}-NAME/NAME).
for d in "$SRC"/pscheduler-{test,tool,archiver,context}-*; do
  kind=$(basename "$d" | cut -d- -f2)
  name=$(basename "$d" | cut -d- -f3-)
  case "$kind/$name" in
  test/idle | test/idleex | test/idlebgm | test/rtt | tool/sleep | tool/snooze | tool/sleepbgm ) ;;
  *) plugin "$kind" "$name" ;;
  esac
done
# (Among them the bit bucket archiver, which accepts every result: psconfig-tools hosts' live test makes archivings of
# it succeed, and fail at run time through a jq transform that raises an error: archiver.raw "Error during
# transformation".)
# The archiver daemon, as its Makefile's `archiver` target builds it (default archives: none, an empty folder).
mkdir -p "$PREFIX/etc/archives"
sed -e "s|__DEFAULT_DIR__|$PREFIX/etc/archives|g" "$SRC/pscheduler-server/pscheduler-server/daemons/archiver.raw" \
  >"$SRC/pscheduler-server/pscheduler-server/daemons/archiver"

# The front end (pscheduler-core) and the internals the database and daemons call, by its Makefile's install target.
CORE=$work/core
cp -r "$SRC/pscheduler-core/pscheduler-core" "$CORE"
make -s -C "$CORE" install BINDIR="$PREFIX/bin" COMMANDSDIR="$PREFIX/commands" INTERNALSDIR="$PREFIX/internals" \
  BASHCOMPDIR="$work" CLASSESINSTALLED="$PREFIX/classes" COMMANDSINSTALLED="$PREFIX/commands" \
  INTERNALSINSTALLED="$PREFIX/internals" LIMITSFILE="$PREFIX/etc/limits.conf" TOOLCONFIGDIR="$PREFIX/etc/tool" \
  >/dev/null
# pScheduler's jq modules (limits scripts `import "pscheduler/iso8601"`): python-pscheduler's jqfilter looks in
# <directory of the jq on PATH>/../lib/jq.
mkdir -p "$PREFIX/lib/jq/pscheduler"
cp "$SRC"/pscheduler-jq-library/pscheduler-jq-library/*.jq "$PREFIX/lib/jq/pscheduler/"
ln -sf /usr/bin/jq "$PREFIX/bin/jq"

# The database SQL, made by pscheduler-server/database/Makefile's own rules (database-build-super.sql and
# database-build.sql) with a placeholder database name that db.sh replaces per instance. The only change:
# database.sql.raw checks that a ROLE named like the DATABASE exists (both are "pscheduler" on a real host); here
# every instance has its own database and all share the role "pscheduler", so the check asks for that role.
DBW=$work/database
cp -r "$SRC/pscheduler-server/pscheduler-server/database" "$DBW"
sed -i "s/WHERE rolname = db_name/WHERE rolname = '__ROLE__'/" "$DBW/database.sql.raw"
grep -q "WHERE rolname = '__ROLE__'" "$DBW/database.sql.raw"
make -s -C "$DBW" DATABASE=PSDBNAME ROLE=pscheduler DATADIR="$PREFIX/db" PASSWORDFILE=/dev/null \
  DSNFILE=/dev/null PGPASSFILE=/dev/null database-build-super.sql database-build.sql >/dev/null
cp "$DBW/database-build-super.sql" "$DBW/database-build.sql" "$PREFIX/db/"

# The API server package; its .raw files name the instance's DSN, limits and run directories (start-instance).
cp -r "$SRC/pscheduler-server/pscheduler-server/api-server/pschedulerapiserver" "$PREFIX/api"

cp "$HERE/limits.json" "$PREFIX/etc/limits.conf"
openssl req -x509 -newkey rsa:2048 -nodes -days 3650 -subj /CN=127.0.0.1 \
  -keyout "$PREFIX/etc/key.pem" -out "$PREFIX/etc/cert.pem" 2>/dev/null

# pSConfig: the `psconfig` package and the file_read_backwards it ships (python-file-read-backwards/).
cp -r "$PREFIX/psconfig/psconfig/perfsonar-psconfig/psconfig" "$PREFIX/lib/psconfig"
tar -xzf "$PREFIX/psconfig/python-file-read-backwards/file-read-backwards-3.0.0.tar.gz" -C "$work"
cp -r "$work/file-read-backwards-3.0.0/file_read_backwards" "$PREFIX/lib/"

cat >"$PREFIX/env.sh" <<EOF
# The environment of every pScheduler and agent process of this prefix (sourced by the harness's scripts).
export PSCHEDULER_PREFIX=$PREFIX
export PATH=$PREFIX/bin:/usr/sbin:/usr/bin:/sbin:/bin
export PYTHONPATH=$PREFIX/lib
export PYTHONDONTWRITEBYTECODE=1
export LC_ALL=C.UTF-8 TZ=UTC
EOF
# Smoke check: the library imports and the front end lists the plug-ins (what the database will ask it).
(
  . "$PREFIX/env.sh"
  $PY -c 'import pscheduler, pyjq, psconfig'
  tests=$(pscheduler internal list test | tr '\n' ' ')
  tools=$(pscheduler internal list tool | tr '\n' ' ')
  archivers=$(pscheduler internal list archiver | tr '\n' ' ')
  contexts=$(pscheduler internal list context | tr '\n' ' ')
  echo "build-pscheduler: tests: $tests; tools: $tools; archivers: $archivers; contexts: $contexts"
  # Every plug-in enumerates (the database's *_boot functions call enumerate and leave out those that fail).
  for e in "$PREFIX"/classes/*/*/enumerate; do
    "$e" </dev/null >/dev/null || { echo "build-pscheduler: $e failed" >&2; exit 1; }
  done
)
echo "$stamp" >"$PREFIX/.built"
echo "build-pscheduler: built $PREFIX (pscheduler $(cat "$VENDOR/pscheduler-src.COMMIT"), psconfig $(cat "$VENDOR/psconfig-src.COMMIT"))"
