#!/bin/sh
# The `tempora` command of the installed app (<app>/bin/tempora; the .deb links /usr/bin/tempora
# here). With arguments it runs the command: out/main/cli.js inside app.asar, built by electron-vite,
# run by the app's own binary as Node (ELECTRON_RUN_AS_NODE, the way VS Code ships `code`), with
# better-sqlite3 built for that binary's ABI. With none, or with only switches a desktop launcher
# passes to Chromium, it opens the app.
here=$(dirname "$(readlink -f "$0")")
app=$(dirname "$here")
if [ $# -eq 0 ]; then exec "$app/tempora"; fi
case "$1" in
  --no-sandbox | --enable-* | --disable-* | --ozone-* | --gtk-version=* | --class=*) exec "$app/tempora" "$@" ;;
esac
for binding in "$app"/resources/native/electron-*/better_sqlite3.node; do
  if [ -f "$binding" ]; then
    TEMPORA_SQLITE_BINDING=$binding
    export TEMPORA_SQLITE_BINDING
  fi
done
ELECTRON_RUN_AS_NODE=1
# How another agent starts this command (`tempora mcp connect` writes it into their configs).
TEMPORA_COMMAND="$here/tempora"
export ELECTRON_RUN_AS_NODE TEMPORA_COMMAND
exec "$app/tempora" "$app/resources/app.asar/out/main/cli.js" "$@"
