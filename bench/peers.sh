#!/usr/bin/env bash
# bench/peers.sh — bqgen side by side with peer generators (issue 6 item 4, docs/performance.md "Peers").
#
#   bench/peers.sh [N]        # N message URNs, default 1000 (also: make peers PEERS_N=100)
#
# 1. builds bqgen and bench/cmd/synth;
# 2. writes the synthetic registry of internal/synth with N URNs (+ a .v2 for one in ten);
# 3. emits it as JSON Schema with `bqgen jsonschema --draft 7`;
# 4. installs the peers into a temporary folder: quicktype (npm, pinned) and
#    github.com/atombender/go-jsonschema (go install, pinned);
# 5. times each generating Go from the same registry (bqgen generate from the YAML, the
#    peers from every data schema), quicktype TypeScript as an extra row, then `go build`
#    of each generated Go package in its own temporary module with a fresh GOCACHE (the
#    standard library and other dependencies are compiled first, untimed: the timed build
#    is the generated package alone);
# 6. prints a Markdown table with the peer/bqgen ratios.
#
# Wall time, CPU (user+sys) and peak RSS come from /usr/bin/time (GNU time) when it is
# installed, else from bash's `time` (no peak RSS). Everything is written under one
# mktemp -d folder, removed on exit; nothing is written into the repository.
# Environment: QUICKTYPE_VERSION, GOJSONSCHEMA_VERSION (pinned below), KEEP=1 keeps the
# temporary folder, GO (default go), NPM (default npm).
set -euo pipefail

N=${1:-${N:-1000}}
QUICKTYPE_VERSION=${QUICKTYPE_VERSION:-26.0.0}       # as tools/node/package.json
GOJSONSCHEMA_VERSION=${GOJSONSCHEMA_VERSION:-v0.24.1} # the newest on the Go module proxy at writing
GO=${GO:-go}
NPM=${NPM:-npm}

case $N in '' | *[!0-9]*) echo "usage: $0 [N]   (N: number of URNs)" >&2; exit 2 ;; esac

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/bqgen-peers.XXXXXX")
cleanup() {
	if [ "${KEEP:-0}" = 1 ]; then
		echo "kept $tmp" >&2
	else
		chmod -R u+w "$tmp" 2>/dev/null || true
		rm -rf "$tmp"
	fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

log() { printf '== %s\n' "$*" >&2; }

gnutime=
if [ -x /usr/bin/time ] && /usr/bin/time -f '%e' -o /dev/null true 2>/dev/null; then
	gnutime=/usr/bin/time
fi

# measure KEY CMD... runs CMD (output to $tmp/log/KEY), records "wall cpu rssMiB rc" in
# $tmp/res/KEY. A failing command is recorded, not fatal.
mkdir -p "$tmp/log" "$tmp/res"
measure() {
	local key=$1 rc=0
	shift
	if [ -n "$gnutime" ]; then
		"$gnutime" -f '%e %U %S %M' -o "$tmp/res/$key.time" "$@" >"$tmp/log/$key" 2>&1 || rc=$?
		tail -n 1 "$tmp/res/$key.time" |
			awk -v rc="$rc" '{ printf "%.2f %.2f %.0f %d\n", $1, $2 + $3, $4 / 1024, rc }' >"$tmp/res/$key"
	else
		local TIMEFORMAT='%R %U %S'
		{ time "$@" >"$tmp/log/$key" 2>&1 || rc=$?; } 2>"$tmp/res/$key.time"
		tail -n 1 "$tmp/res/$key.time" |
			awk -v rc="$rc" '{ printf "%.2f %.2f - %d\n", $1, $2 + $3, rc }' >"$tmp/res/$key"
	fi
	if [ "$rc" != 0 ]; then
		log "$key FAILED (exit $rc); last lines of its output:"
		tail -n 5 "$tmp/log/$key" | cut -c1-300 >&2
	fi
}

# --- 1. build bqgen and the synthetic-registry writer ------------------------------------
log "building bqgen and bench/cmd/synth"
mkdir -p "$tmp/bin"
(cd "$root" && "$GO" build -o "$tmp/bin/bqgen" ./cmd/bqgen && "$GO" build -o "$tmp/bin/synth" ./bench/cmd/synth)
bqgen=$tmp/bin/bqgen

# --- 2. synthetic registry ---------------------------------------------------------------
log "writing the synthetic registry: $N URNs"
"$tmp/bin/synth" -n "$N" -o "$tmp/registry"

# --- 3. JSON Schema (draft 7) ------------------------------------------------------------
log "bqgen jsonschema --draft 7"
"$bqgen" jsonschema -r "$tmp/registry" -o "$tmp/schemas" --draft 7 >/dev/null
# The peers get every data schema (one per message: what bqgen's message types cover).
mapfile -t schemas < <(cd "$tmp/schemas" && find . -maxdepth 1 -name '*.data.schema.json' | sed 's|^\./||' | LC_ALL=C sort)
log "${#schemas[@]} messages (data schemas)"
# go-jsonschema writes a pattern into a Go raw string: a pattern holding a backtick (the
# email format's) makes its output uncompilable. The same schemas with ` written as the
# equivalent regexp escape \x60 let it build.
mkdir -p "$tmp/schemas-nobacktick"
for s in "${schemas[@]}"; do
	sed 's/`/\\\\x60/g' "$tmp/schemas/$s" >"$tmp/schemas-nobacktick/$s"
done
backticks=$(grep -l '`' "$tmp/schemas"/*.data.schema.json | wc -l)

# --- 4. peers, installed into the temporary folder ---------------------------------------
have_qt=0 have_gjs=0
log "installing quicktype@$QUICKTYPE_VERSION (npm)"
if (cd "$tmp" && mkdir -p npm && "$NPM" install --prefix "$tmp/npm" --no-audit --no-fund --no-save \
	"quicktype@$QUICKTYPE_VERSION" >"$tmp/log/npm-install" 2>&1); then
	quicktype=$tmp/npm/node_modules/.bin/quicktype
	have_qt=1
else
	log "quicktype@$QUICKTYPE_VERSION could not be installed from the npm registry: quicktype rows skipped"
	tail -n 5 "$tmp/log/npm-install" >&2
fi
log "installing github.com/atombender/go-jsonschema@$GOJSONSCHEMA_VERSION (go install)"
if (cd "$tmp" && GOBIN="$tmp/bin" GOFLAGS= "$GO" install "github.com/atombender/go-jsonschema@$GOJSONSCHEMA_VERSION" >"$tmp/log/go-install" 2>&1); then
	gojsonschema=$tmp/bin/go-jsonschema
	have_gjs=1
else
	log "github.com/atombender/go-jsonschema@$GOJSONSCHEMA_VERSION is not served by $($GO env GOPROXY) (or does not build): go-jsonschema rows skipped"
	tail -n 5 "$tmp/log/go-install" >&2
fi

# --- 5a. generation ----------------------------------------------------------------------
# Each generated Go package goes into its own module, $tmp/mod/<key>/events.
newmod() {
	mkdir -p "$tmp/mod/$1/events"
	printf 'module peerbench/%s\n\ngo 1.24\n' "$1" >"$tmp/mod/$1/go.mod"
}
rows=(bqgen)
newmod bqgen
log "timing: bqgen generate"
measure gen.bqgen "$bqgen" generate -r "$tmp/registry" -o "$tmp/mod/bqgen/events" --package events

if [ "$have_qt" = 1 ]; then
	qtsrc=()
	for s in "${schemas[@]}"; do qtsrc+=(--src "$s"); done
	rows+=(quicktype)
	newmod quicktype
	log "timing: quicktype --lang go"
	measure gen.quicktype env -C "$tmp/schemas" "$quicktype" --src-lang schema --lang go --package events \
		--out "$tmp/mod/quicktype/events/events.go" "${qtsrc[@]}"
	rows+=(quicktype-ts)
	mkdir -p "$tmp/ts"
	log "timing: quicktype --lang typescript"
	measure gen.quicktype-ts env -C "$tmp/schemas" "$quicktype" --src-lang schema --lang typescript \
		--out "$tmp/ts/events.ts" "${qtsrc[@]}"
fi
if [ "$have_gjs" = 1 ]; then
	rows+=(go-jsonschema go-jsonschema-patched)
	newmod go-jsonschema
	newmod go-jsonschema-patched
	log "timing: go-jsonschema (the schemas as emitted)"
	measure gen.go-jsonschema env -C "$tmp/schemas" "$gojsonschema" -p events -t \
		-o "$tmp/mod/go-jsonschema/events/events.go" "${schemas[@]}"
	log "timing: go-jsonschema (backticks in patterns written as \\x60)"
	measure gen.go-jsonschema-patched env -C "$tmp/schemas-nobacktick" "$gojsonschema" -p events -t \
		-o "$tmp/mod/go-jsonschema-patched/events/events.go" "${schemas[@]}"
	# Second bug: for a nullable reference to a definition shared by several schemas
	# (anyOf [$ref Address, null]) it declares `type Address = Address_3` beside the
	# struct Address it already declared. Untimed fix: drop such alias declarations.
	f=$tmp/mod/go-jsonschema-patched/events/events.go
	if [ -f "$f" ]; then
		awk 'NR == FNR { if ($1 == "type" && $3 != "=") decl[$2] = 1; next }
			!($1 == "type" && $3 == "=" && (($2 in decl) || seen[$2]++))' "$f" "$f" >"$f.tmp"
		dropped=$(($(wc -l <"$f") - $(wc -l <"$f.tmp")))
		mv "$f.tmp" "$f"
	fi
fi

# --- 5b. go build of each generated Go package -------------------------------------------
export GOCACHE=$tmp/gocache GOFLAGS="-mod=mod -buildvcs=false"
for key in "${rows[@]}"; do
	[ -d "$tmp/mod/$key" ] || continue
	read -r _ _ _ rc <"$tmp/res/gen.$key"
	if [ "$rc" != 0 ] || [ -z "$(ls -A "$tmp/mod/$key/events")" ]; then
		continue
	fi
	# Dependencies (the go-jsonschema runtime package) are resolved and, with the standard
	# library, compiled first, untimed.
	if ! (cd "$tmp/mod/$key" && "$GO" mod tidy >"$tmp/log/tidy.$key" 2>&1); then
		log "$key: go mod tidy failed"
		tail -n 5 "$tmp/log/tidy.$key" >&2
	fi
	# ./events/...: bqgen writes a package per bounded context below the runtime package.
	mapfile -t deps < <(cd "$tmp/mod/$key" && "$GO" list -e -deps -f '{{.ImportPath}}' ./events/... | grep -v "^peerbench/$key/events")
	if [ "${#deps[@]}" -gt 0 ]; then
		(cd "$tmp/mod/$key" && "$GO" build "${deps[@]}" >"$tmp/log/deps.$key" 2>&1) || true
	fi
	log "timing: go build ($key)"
	measure build.$key env -C "$tmp/mod/$key" "$GO" build ./events/...
done

# --- 6. table ----------------------------------------------------------------------------
field() { # field FILE INDEX -> value, or "" when FILE is missing
	[ -f "$1" ] || { echo ""; return; }
	awk -v i="$2" '{ print $i }' "$1"
}
ratio() { # ratio PEER BQGEN
	awk -v a="$1" -v b="$2" 'BEGIN { if (a == "" || b == "" || a == "-" || b == "-" || b + 0 == 0) print "–"; else printf "%.1f×", a / b }'
}
cell() { # cell RESFILE -> "wall s / cpu s / rss MiB" or FAIL
	local f=$1
	[ -f "$f" ] || { echo "–"; return; }
	local wall cpu rss rc
	read -r wall cpu rss rc <"$f"
	if [ "$rc" != 0 ]; then
		echo "FAIL (exit $rc)"
	elif [ "$rss" = - ]; then
		echo "$wall s / $cpu s"
	else
		echo "$wall s / $cpu s / $rss MiB"
	fi
}
lines() {
	case $1 in
	quicktype-ts) [ -f "$tmp/ts/events.ts" ] && cat "$tmp/ts/events.ts" | wc -l || echo "–" ;;
	*) if compgen -G "$tmp/mod/$1/events/*" >/dev/null; then find "$tmp/mod/$1/events" -name '*.go' -exec cat {} + | wc -l; else echo "–"; fi ;;
	esac
}
desc() {
	case $1 in
	bqgen) echo "bqgen generate (from the YAML)" ;;
	quicktype) echo "quicktype $QUICKTYPE_VERSION --lang go" ;;
	quicktype-ts) echo "quicktype $QUICKTYPE_VERSION --lang typescript (no build)" ;;
	go-jsonschema) echo "go-jsonschema $GOJSONSCHEMA_VERSION (schemas as emitted)" ;;
	go-jsonschema-patched) echo "go-jsonschema $GOJSONSCHEMA_VERSION (patched: see below)" ;;
	esac
}

bq_gen_wall=$(field "$tmp/res/gen.bqgen" 1)
bq_build_wall=$(field "$tmp/res/build.bqgen" 1)
bq_build_rss=$(field "$tmp/res/build.bqgen" 3)
messages=${#schemas[@]}
echo
echo "bqgen vs peers: $N URNs ($messages messages), $(nproc) CPUs, $(grep -m1 'model name' /proc/cpuinfo 2>/dev/null | sed 's/.*: //'), $("$GO" version | sed 's/^go version //')"
[ -n "$gnutime" ] || echo "(/usr/bin/time not found: wall and CPU from bash time, no peak RSS)"
echo
echo "| generator | generate: wall / CPU / peak RSS | generated lines | go build of the package: wall / CPU / peak RSS | generate ratio (÷ bqgen) | build ratio (÷ bqgen, wall) | build RSS ratio |"
echo "|---|---|---|---|---|---|---|"
for key in "${rows[@]}"; do
	gen_wall=$(field "$tmp/res/gen.$key" 1)
	gen_rc=$(field "$tmp/res/gen.$key" 4)
	build_wall=$(field "$tmp/res/build.$key" 1)
	build_rss=$(field "$tmp/res/build.$key" 3)
	build_rc=$(field "$tmp/res/build.$key" 4)
	[ "$gen_rc" = 0 ] || gen_wall=
	[ "$build_rc" = 0 ] || { build_wall=; build_rss=; }
	if [ "$key" = bqgen ]; then
		r1=1 r2=1 r3=1
	else
		r1=$(ratio "$gen_wall" "$bq_gen_wall")
		r2=$(ratio "$build_wall" "$bq_build_wall")
		r3=$(ratio "$build_rss" "$bq_build_rss")
	fi
	if [ "$key" = quicktype-ts ]; then b="(not Go)"; r2="–"; r3="–"; else b=$(cell "$tmp/res/build.$key"); fi
	echo "| $(desc "$key") | $(cell "$tmp/res/gen.$key") | $(lines "$key") | $b | $r1 | $r2 | $r3 |"
done
echo
echo "Ratios are peer ÷ bqgen: above 1 means the peer takes longer (or more memory)."
if [ "$have_gjs" = 1 ]; then
	echo "go-jsonschema: its output of the schemas as emitted does not compile: (1) $backticks of $messages data schemas hold a pattern with a backtick (the email format's) and go-jsonschema copies patterns into Go raw strings; (2) for nullable references to a definition shared across schemas it declares aliases such as \`type Address = Address_3\` beside the struct Address. The patched row runs it on the same schemas with \` in patterns written as the equivalent regexp escape \\x60 (timed), then drops the ${dropped:-0} clashing alias lines (untimed) so that the package builds."
else
	echo "go-jsonschema $GOJSONSCHEMA_VERSION: not installed (not served by the module proxy, or did not build): not measured."
fi
[ "$have_qt" = 1 ] || echo "quicktype $QUICKTYPE_VERSION: not installed from the npm registry: not measured."
