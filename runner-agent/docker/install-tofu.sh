#!/bin/bash
# Verifies a downloaded OpenTofu release and unpacks its tofu binary; used by ../Dockerfile.
#
#   install-tofu.sh VERSION ARCH DOWNLOAD_DIR DEST_DIR
#
# DOWNLOAD_DIR holds, as published on https://github.com/opentofu/opentofu/releases/tag/vVERSION:
#   tofu_VERSION_linux_ARCH.zip, tofu_VERSION_SHA256SUMS and tofu_VERSION_SHA256SUMS.gpgsig.
# Environment:
#   OPENTOFU_KEY_FILE         OpenTofu's public signing key (ASCII armoured)
#   OPENTOFU_KEY_FINGERPRINT  the fingerprint that key must have (40 hex digits)
#   TOFU_SHA256               optional: the zip's expected SHA-256, pinned in the Dockerfile
#
# Order: the key's fingerprint, then the GPG signature of SHA256SUMS, then the pinned checksum against
# the signed one, then the zip against the signed checksum. Nothing is unpacked before all of them pass.
set -euo pipefail

die() {
  echo "install-tofu: $*" >&2
  exit 1
}

[ $# -eq 4 ] || die "usage: install-tofu.sh VERSION ARCH DOWNLOAD_DIR DEST_DIR"
version=$1
arch=$2
dir=$3
dest=$4
: "${OPENTOFU_KEY_FILE:?OPENTOFU_KEY_FILE is not set}"
: "${OPENTOFU_KEY_FINGERPRINT:?OPENTOFU_KEY_FINGERPRINT is not set}"
pinned=${TOFU_SHA256:-}

case "$arch" in
  amd64 | arm64) ;;
  *) die "unsupported architecture '$arch' (OpenTofu publishes linux amd64 and arm64 zips)" ;;
esac

zip="tofu_${version}_linux_${arch}.zip"
sums="tofu_${version}_SHA256SUMS"
for file in "$zip" "$sums" "$sums.gpgsig"; do
  [ -s "$dir/$file" ] || die "$dir/$file is missing or empty"
done

GNUPGHOME=$(mktemp -d)
export GNUPGHOME
trap 'rm -rf "$GNUPGHOME"' EXIT

# 1. The key we were given is the key we expect (a keyring holding only this key).
gpg --batch --quiet --import "$OPENTOFU_KEY_FILE"
fingerprint=$(gpg --batch --with-colons --list-keys | awk -F: '$1 == "fpr" { print $10; exit }')
[ "$fingerprint" = "$OPENTOFU_KEY_FINGERPRINT" ] \
  || die "the signing key's fingerprint is '$fingerprint', expected '$OPENTOFU_KEY_FINGERPRINT'"

# 2. SHA256SUMS carries a valid signature made by that key (VALIDSIG names the primary key last).
status=$(gpg --batch --status-fd 1 --verify "$dir/$sums.gpgsig" "$dir/$sums" 2>/dev/null) \
  || die "the GPG signature of $sums does not verify"
printf '%s\n' "$status" | grep -Eq "^\[GNUPG:\] VALIDSIG .* ${OPENTOFU_KEY_FINGERPRINT}\$" \
  || die "$sums is not signed by $OPENTOFU_KEY_FINGERPRINT"
echo "install-tofu: $sums is signed by $OPENTOFU_KEY_FINGERPRINT"

# 3. The signed checksum of the zip, and the pinned one when there is one.
expected=$(awk -v file="$zip" '$2 == file { print $1 }' "$dir/$sums")
[ -n "$expected" ] || die "$sums has no line for $zip"
if [ -n "$pinned" ] && [ "$pinned" != "$expected" ]; then
  die "the pinned SHA-256 of $zip ($pinned) differs from the signed one ($expected)"
fi

# 4. The zip itself.
(cd "$dir" && printf '%s  %s\n' "$expected" "$zip" | sha256sum --check --strict -) \
  || die "$zip does not match its signed SHA-256 $expected"

mkdir -p "$dest"
unzip -q -o -j "$dir/$zip" tofu -d "$dest"
chmod 0755 "$dest/tofu"
echo "install-tofu: OpenTofu $version ($arch) verified and installed as $dest/tofu"
