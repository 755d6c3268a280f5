#!/bin/sh
# Debian's headless Chromium, for the browser test of the HTML report (test/report): installed when
# missing, where this user may (root with apt-get); otherwise that test says why it is skipped.
chromium_path="${CHAIN_ETL_CHROMIUM:-/usr/bin/chromium}"
[ -x "$chromium_path" ] && exit 0
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
  echo "installing Debian's chromium for the browser tests (a few minutes, once)" >&2
  if apt-get install -y -q chromium >/dev/null 2>&1 || { apt-get update -q >/dev/null 2>&1 && apt-get install -y -q chromium >/dev/null 2>&1; }; then
    exit 0
  fi
fi
echo "chromium is not installed and cannot be installed here (needs root and apt-get): the browser tests will be skipped" >&2
exit 0
