#!/usr/bin/env bash
# Debian 12 packages a real pScheduler 5.2.x and pSConfig's agent need when built from source (what their
# unibuild-packaging/*.spec Requires name, mapped to Debian's names). Idempotent: does nothing when all are present.
# Needs root (apt-get); reaches only Debian's archive.
set -euo pipefail
PACKAGES=(
  # pScheduler's database: PostgreSQL with PL/Python (pscheduler-server/database uses plpython3u)
  postgresql-15 postgresql-contrib postgresql-plpython3-15
  # python-pscheduler, the API server (Flask) and the daemons
  python3-flask python3-werkzeug python3-psycopg2 python3-dnspython python3-requests python3-tz python3-tzlocal
  python3-jsonschema python3-dateutil python3-netifaces python3-radix python3-ntplib python3-isodate python3-jinja2
  python3-netaddr python3-psutil python3-pycurl python3-daemon python3-crontab python3-setuptools
  # what python3-jsonschema Recommends (apt installs it on a real host; this script does not install recommends):
  # with rfc3987, jsonschema checks `"format": "uri"` (an esmond `url` of "asdfz" is refused), as on a perfSONAR host
  python3-rfc3987
  # pyjq, built from the tarball python-pyjq/ ships, against Debian's libjq
  cython3 libjq-dev libonig-dev python3-dev gcc jq
  # pSConfig's agent (perfsonar/psconfig psconfig/perfsonar-psconfig)
  python3-tqdm python3-pyinotify
  # the harness: a self-signed certificate for the API, curl for readiness checks by hand
  openssl curl
)
missing=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "install-packages: all ${#PACKAGES[@]} Debian packages present"
  exit 0
fi
if [ "$(id -u)" -ne 0 ]; then
  echo "install-packages: missing ${missing[*]}; run as root (apt-get install)" >&2
  exit 1
fi
echo "install-packages: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
echo "install-packages: done"
