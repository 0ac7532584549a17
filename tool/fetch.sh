#!/usr/bin/env bash
# Get the pinned upstream tarball into dist/ and verify its sha256.
#
#   RUBY_TARBALL=/path/to/ruby3.3_3.3.8.orig.tar.xz   use a local copy
#
# Otherwise the tarball is fetched with apt's own client from the Debian
# source package named in UPSTREAM, through a private apt configuration
# whose deb-src entry reuses the URIs of this machine's Debian sources.
# Nothing is ever left half-written in dist/: files arrive by rename.
. "$(dirname "$0")/common.sh"

verify_or_die() {   # file, what-to-do-sentence
    local got
    got=$(sha256_of "$1")
    if [ "$got" != "$SHA256" ]; then
        die "$1 has sha256 $got, not the $SHA256 that UPSTREAM pins; $2"
    fi
}

install_verified() {   # source file -> $TARBALL_PATH, atomically
    mkdir -p "$DIST"
    local tmp
    tmp=$(mktemp "$DIST/.$TARBALL.XXXXXX")
    cp "$1" "$tmp"
    if [ "$(sha256_of "$tmp")" != "$SHA256" ]; then
        rm -f "$tmp"
        die "the copy of $1 in $DIST does not match UPSTREAM's sha256; check the disk and retry."
    fi
    chmod 0644 "$tmp"
    mv -f "$tmp" "$TARBALL_PATH"
}

if [ -n "${RUBY_TARBALL:-}" ]; then
    [ -f "$RUBY_TARBALL" ] || die "RUBY_TARBALL=$RUBY_TARBALL does not exist; point it at $TARBALL or unset it to fetch with apt."
    verify_or_die "$RUBY_TARBALL" "point RUBY_TARBALL at $TARBALL from Debian's $DEBIAN_SOURCE $DEBIAN_VERSION, or unset it to fetch with apt."
    if [ -f "$TARBALL_PATH" ] && [ "$(sha256_of "$TARBALL_PATH")" = "$SHA256" ]; then
        note "$TARBALL already in $DIST (verified)"
    else
        install_verified "$RUBY_TARBALL"
        note "$TARBALL copied from RUBY_TARBALL (verified)"
    fi
    exit 0
fi

if [ -f "$TARBALL_PATH" ]; then
    if [ "$(sha256_of "$TARBALL_PATH")" = "$SHA256" ]; then
        note "$TARBALL already in $DIST (sha256 verified)"
        exit 0
    fi
    echo "warning: cached $TARBALL_PATH does not match UPSTREAM's sha256; fetching it again" >&2
    rm -f "$TARBALL_PATH"
fi

command -v apt-get >/dev/null 2>&1 ||
    die "apt-get is not installed, so $TARBALL cannot be fetched from Debian here; download it yourself and run again with RUBY_TARBALL=/path/to/$TARBALL."

# The URIs of this machine's own Debian sources: entries for the running
# release's codename, in deb822 (.sources) or one-line (.list) form.
# FORK_APT_URIS overrides them (the tooling tests use it).
debian_uris() {
    if [ -n "${FORK_APT_URIS:-}" ]; then
        echo "$FORK_APT_URIS"
        return
    fi
    local codename=""
    if [ -r /etc/os-release ]; then
        codename=$(. /etc/os-release && echo "${VERSION_CODENAME:-}")
    fi
    local etc=${FORK_APT_ETC:-/etc/apt}
    {
        for f in "$etc"/sources.list.d/*.sources; do
            [ -f "$f" ] || continue
            awk -v cn="$codename" '
                function flush() {
                    if (types ~ /(^| )deb( |$)/ && uris != "" &&
                        (cn == "" ? keyring ~ /debian-archive/ : (" " suites " ") ~ (" " cn " ")))
                        print uris
                    types = uris = suites = keyring = ""
                }
                /^[ \t]*$/ { flush(); next }
                /^[ \t]*#/ { next }
                tolower($1) == "types:"     { $1 = ""; types = $0 }
                tolower($1) == "uris:"      { $1 = ""; uris = $0 }
                tolower($1) == "suites:"    { $1 = ""; suites = $0 }
                tolower($1) == "signed-by:" { $1 = ""; keyring = $0 }
                END { flush() }' "$f"
        done
        for f in "$etc"/sources.list "$etc"/sources.list.d/*.list; do
            [ -f "$f" ] || continue
            awk -v cn="$codename" '
                $1 == "deb" {
                    i = 2
                    if ($i ~ /^\[/) { while ($i !~ /\]$/) i++; i++ }
                    if (cn == "" || $(i + 1) == cn) print $i
                }' "$f"
        done
    } | tr ' ' '\n' | sed '/^$/d' | awk '!seen[$0]++'
}

uris=$(debian_uris | tr '\n' ' ')
[ -n "${uris// /}" ] ||
    die "found no Debian source for this release in /etc/apt to copy the mirror from; download $TARBALL yourself and run again with RUBY_TARBALL=/path/to/$TARBALL."

keyring=/usr/share/keyrings/debian-archive-keyring.gpg
[ -r "$keyring" ] || die "$keyring is missing (package debian-archive-keyring); install it, or use RUBY_TARBALL=/path/to/$TARBALL."

work=$(mktemp -d "${TMPDIR:-/tmp}/fork-fetch.XXXXXX")
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/parts" "$work/lists/partial" "$work/cache/archives/partial" "$work/dl"
: > "$work/sources.list"
cat > "$work/parts/upstream.sources" <<EOF
Types: deb-src
URIs: $uris
Suites: $DEBIAN_SUITE
Components: main
Signed-By: $keyring
EOF

apt_private() {
    apt-get -q \
        -o Dir::Etc::SourceList="$work/sources.list" \
        -o Dir::Etc::SourceParts="$work/parts" \
        -o Dir::State::Lists="$work/lists" \
        -o Dir::Cache="$work/cache" \
        -o Dir::Cache::pkgcache= -o Dir::Cache::srcpkgcache= \
        -o APT::Sandbox::User="$(id -un)" \
        -o Acquire::Retries=2 \
        -o Acquire::http::Timeout=30 -o Acquire::https::Timeout=30 \
        -o Debug::NoLocking=1 \
        "$@"
}

note "fetching $DEBIAN_SOURCE $DEBIAN_VERSION ($DEBIAN_SUITE) with apt-get source"
if ! apt_private update > "$work/update.log" 2>&1 ||
   grep -qE '^(E:|W: Failed to fetch)' "$work/update.log"; then
    sed 's/^/  /' "$work/update.log" | tail -5 >&2
    die "could not read the $DEBIAN_SUITE source index from this machine's Debian mirror; check the network and apt sources, or download $TARBALL yourself and run again with RUBY_TARBALL=/path/to/$TARBALL."
fi
if ! (cd "$work/dl" && apt_private source --download-only "$DEBIAN_SOURCE=$DEBIAN_VERSION") > "$work/source.log" 2>&1; then
    sed 's/^/  /' "$work/source.log" | tail -5 >&2
    die "apt-get source could not download $DEBIAN_SOURCE $DEBIAN_VERSION; check the network, or download $TARBALL yourself and run again with RUBY_TARBALL=/path/to/$TARBALL."
fi
[ -f "$work/dl/$TARBALL" ] || die "apt-get source did not produce $TARBALL; has Debian renamed it? Set RUBY_TARBALL=/path/to/$TARBALL."
verify_or_die "$work/dl/$TARBALL" "the mirror served a different file; do not use it. Report it, or set RUBY_TARBALL to a verified copy."
install_verified "$work/dl/$TARBALL"
note "$TARBALL fetched into $DIST (sha256 verified)"
