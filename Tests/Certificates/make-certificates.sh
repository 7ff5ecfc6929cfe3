#!/bin/sh
# Makes the TLS test certificates for Baton's tests, in this directory, and writes
# Sources/DemoServer/TLS/DemoCertificates.swift (DemoServer's default certificates).
#
# Every key is EC P-256 (PKCS #8 PEM); every certificate is signed with SHA-256 by `openssl ca`,
# so validity dates can be any, past or future. Each run makes new keys, so every output changes.
# Usage: sh Tests/Certificates/make-certificates.sh   (from any directory; needs OpenSSL 3)
set -eu

cd "$(dirname "$0")"
out=$(pwd)
swift_file="$out/../../Sources/DemoServer/TLS/DemoCertificates.swift"

work=$(mktemp -d "${TMPDIR:-/tmp}/baton-certificates.XXXXXX")
trap 'rm -rf "$work"' EXIT
trap 'exit 1' HUP INT TERM

long_start=20260101000000Z
long_end=21251231235959Z

# The extension sections, one file for every certificate.
cat > "$work/extensions.cnf" <<'CNF'
[root]
basicConstraints = critical, CA:TRUE
keyUsage = critical, keyCertSign, cRLSign
subjectKeyIdentifier = hash

[intermediate]
basicConstraints = critical, CA:TRUE, pathlen:0
keyUsage = critical, keyCertSign, cRLSign
subjectKeyIdentifier = hash
authorityKeyIdentifier = keyid:always

[localhost]
basicConstraints = CA:FALSE
keyUsage = critical, digitalSignature
extendedKeyUsage = serverAuth
subjectAltName = DNS:localhost, IP:127.0.0.1, IP:::1
subjectKeyIdentifier = hash
authorityKeyIdentifier = keyid:always

[other_host]
basicConstraints = CA:FALSE
keyUsage = critical, digitalSignature
extendedKeyUsage = serverAuth
subjectAltName = DNS:api.example.com, DNS:www.example.com
subjectKeyIdentifier = hash
authorityKeyIdentifier = keyid:always

[self_signed]
basicConstraints = CA:FALSE
keyUsage = critical, digitalSignature
extendedKeyUsage = serverAuth
subjectAltName = DNS:localhost, IP:127.0.0.1, IP:::1
subjectKeyIdentifier = hash

# Names of every kind around the two a refusal shows (DNS, IP), to be skipped: otherName and
# directoryName, whose values are not strings, an email of four bytes (which would read as an
# IPv4 address, were the entry's type not checked), and a URI.
[odd_names]
basicConstraints = CA:FALSE
keyUsage = critical, digitalSignature
extendedKeyUsage = serverAuth
subjectAltName = otherName:1.2.3.4;UTF8:hello, dirName:odd_names_directory, DNS:localhost, email:ab@c, URI:https://example.com/, IP:192.0.2.7
subjectKeyIdentifier = hash

[odd_names_directory]
C = JP
O = Baton Test
CN = a directory name
CNF

# new_key FILE: a new EC P-256 private key, PKCS #8 PEM.
new_key() {
    openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 -out "$1" 2>/dev/null
}

# new_ca NAME: a directory with the database and minimal config `openssl ca` needs.
new_ca() {
    dir="$work/$1"
    mkdir -p "$dir/new"
    : > "$dir/index.txt"
    openssl rand -hex 16 > "$dir/serial"
    cat > "$dir/ca.cnf" <<CNF
[ca]
default_ca = this_ca

[this_ca]
dir = $dir
database = \$dir/index.txt
new_certs_dir = \$dir/new
serial = \$dir/serial
default_md = sha256
policy = policy_cn
unique_subject = no
email_in_dn = no
copy_extensions = none

[policy_cn]
commonName = supplied
CNF
}

# sign CA SUBJECT_CN KEY EXTENSIONS START END OUT [ISSUER_CERT ISSUER_KEY]
# Without an issuer, the certificate is self-signed with KEY.
sign() {
    ca=$1 cn=$2 key=$3 ext=$4 start=$5 end=$6 cert_out=$7
    openssl req -new -key "$key" -subj "/CN=$cn" -out "$work/request.csr"
    if [ $# -ge 9 ]; then
        set -- -cert "$8" -keyfile "$9"
    else
        set -- -selfsign -keyfile "$key"
    fi
    openssl ca -config "$work/$ca/ca.cnf" -batch -notext -md sha256 \
        -startdate "$start" -enddate "$end" \
        -extfile "$work/extensions.cnf" -extensions "$ext" \
        -in "$work/request.csr" -out "$cert_out" "$@" 2>/dev/null
}

# The root and the intermediate: only the root's certificate is kept on its own.
new_ca root
new_key "$work/root.key"
sign root "Baton Test Root CA" "$work/root.key" root $long_start $long_end "$work/root.pem"

new_ca intermediate
new_key "$work/intermediate.key"
sign root "Baton Test Intermediate CA" "$work/intermediate.key" intermediate $long_start $long_end \
    "$work/intermediate.pem" "$work/root.pem" "$work/root.key"

# leaf NAME CN EXTENSIONS START END: a leaf issued by the intermediate, NAME.pem being the leaf
# followed by the intermediate.
leaf() {
    new_key "$work/$1.key"
    sign intermediate "$2" "$work/$1.key" "$3" "$4" "$5" "$work/$1.leaf.pem" \
        "$work/intermediate.pem" "$work/intermediate.key"
    cat "$work/$1.leaf.pem" "$work/intermediate.pem" > "$work/$1.pem"
}

leaf localhost localhost localhost $long_start $long_end
leaf expired localhost localhost 20200101000000Z 20210101000000Z
leaf not-yet-valid localhost localhost 21200101000000Z $long_end
leaf other-host api.example.com other_host $long_start $long_end

# A self-signed leaf.
new_ca self-signed
new_key "$work/self-signed.key"
sign self-signed localhost "$work/self-signed.key" self_signed $long_start $long_end "$work/self-signed.pem"

# A self-signed leaf with subjectAltName entries of every kind, for localhost and 192.0.2.7 only.
new_ca odd-names
new_key "$work/odd-names.key"
sign odd-names localhost "$work/odd-names.key" odd_names $long_start $long_end "$work/odd-names.pem"

# A leaf issued by a root nobody trusts, which is thrown away.
new_ca unknown-root
new_key "$work/unknown-root.key"
sign unknown-root "Baton Unknown Root CA" "$work/unknown-root.key" root $long_start $long_end "$work/unknown-root.pem"
new_key "$work/unknown-ca.key"
sign unknown-root localhost "$work/unknown-ca.key" localhost $long_start $long_end "$work/unknown-ca.pem" \
    "$work/unknown-root.pem" "$work/unknown-root.key"

# Check the chains before writing anything: a failure here leaves the old files in place.
check() {
    # check EXPECTED_RESULT CERT [openssl verify options...]
    expected=$1 cert=$2
    shift 2
    if openssl verify -CAfile "$work/root.pem" -untrusted "$work/intermediate.pem" \
        -purpose sslserver "$@" "$cert" > "$work/verify.txt" 2>&1; then
        result=ok
    else
        result=$(sed -n 's/^error [0-9]* at [0-9]* depth lookup: //p' "$work/verify.txt" | head -n 1)
    fi
    if [ "$result" != "$expected" ]; then
        echo "make-certificates.sh: $cert: expected \"$expected\", got:" >&2
        cat "$work/verify.txt" >&2
        exit 1
    fi
}
check ok "$work/localhost.leaf.pem" -verify_hostname localhost
check ok "$work/localhost.leaf.pem" -verify_ip 127.0.0.1
check ok "$work/localhost.leaf.pem" -verify_ip ::1
check "certificate has expired" "$work/expired.leaf.pem"
check "certificate is not yet valid" "$work/not-yet-valid.leaf.pem"
check ok "$work/other-host.leaf.pem" -verify_hostname api.example.com
check "hostname mismatch" "$work/other-host.leaf.pem" -verify_hostname localhost
check "self-signed certificate" "$work/self-signed.pem"
check "unable to get local issuer certificate" "$work/unknown-ca.pem"
# Trusted as its own root, the odd-names leaf is for localhost and 192.0.2.7, not 127.0.0.1.
openssl verify -CAfile "$work/odd-names.pem" -verify_hostname localhost "$work/odd-names.pem" > /dev/null
if openssl verify -CAfile "$work/odd-names.pem" -verify_ip 127.0.0.1 "$work/odd-names.pem" > /dev/null 2>&1; then
    echo "make-certificates.sh: odd-names.pem: expected an IP address mismatch for 127.0.0.1" >&2
    exit 1
fi

# spki_sha256 CERT: the base64 SHA-256 of the certificate's DER SubjectPublicKeyInfo.
spki_sha256() {
    openssl x509 -in "$1" -pubkey -noout | openssl pkey -pubin -outform der |
        openssl dgst -sha256 -binary | openssl base64 -A
    echo
}

# The outputs.
cp "$work/root.pem" "$out/root-ca.pem"
for name in expired not-yet-valid other-host self-signed unknown-ca odd-names; do
    cp "$work/$name.pem" "$out/$name.pem"
    cp "$work/$name.key" "$out/$name.key"
    chmod 644 "$out/$name.key"   # test keys, public on purpose
done
spki_sha256 "$work/localhost.leaf.pem" > "$out/localhost.spki-sha256"
spki_sha256 "$work/self-signed.pem" > "$out/other-key.spki-sha256"

# indent FILE: the file's lines, each after 4 spaces, for a Swift multi-line string literal.
indent() {
    sed 's/^/    /' "$1"
}

mkdir -p "$(dirname "$swift_file")"
{
    cat <<'SWIFT'
// Generated by Tests/Certificates/make-certificates.sh: do not edit by hand.

/// The certificates DemoServer serves `https` with by default: a test root, and a chain for
/// `localhost`, `127.0.0.1` and `::1` issued through an intermediate, valid until the end of 2125.
/// They are for loopback tests only: the private key is public, in this file.
enum DemoCertificates {
    /// The test root certificate authority, PEM: what a client adds to its trusted roots.
    static let rootAuthority = """
SWIFT
    indent "$work/root.pem"
    cat <<'SWIFT'
    """

    /// The leaf certificate for localhost, followed by the intermediate that issued it, PEM.
    static let chain = """
SWIFT
    indent "$work/localhost.pem"
    cat <<'SWIFT'
    """

    /// The leaf's private key, PEM (PKCS #8).
    static let privateKey = """
SWIFT
    indent "$work/localhost.key"
    cat <<'SWIFT'
    """
}
SWIFT
} > "$swift_file"
