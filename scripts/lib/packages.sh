# Shared by the scripts: install Debian packages that are missing (we run as root on CI and
# developer machines; elsewhere sudo is used when present).
need_packages() {
    local missing=()
    for package in "$@"; do
        dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
    done
    [ ${#missing[@]} -eq 0 ] && return 0
    local sudo=""
    [ "$(id -u)" -ne 0 ] && command -v sudo >/dev/null && sudo="sudo"
    echo "Installing missing packages: ${missing[*]}" >&2
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
}

# The system libraries the root package links, one per system library target of Package.swift
# (CInotifyTools, CLibYAML): every script that builds it installs them first.
build_packages=(libinotifytools0-dev libyaml-dev)

# Debian's etcd-server starts a system service from its install script, which fails where no
# service manager runs (containers, CI). Install it with service starts refused (policy-rc.d
# exits 101); the tests start /usr/bin/etcd themselves on loopback ports.
need_etcd() {
    dpkg-query -W -f='${Status}' etcd-server 2>/dev/null | grep -q "install ok installed" \
        && dpkg-query -W -f='${Status}' etcd-client 2>/dev/null | grep -q "install ok installed" && return 0
    local sudo=""
    [ "$(id -u)" -ne 0 ] && command -v sudo >/dev/null && sudo="sudo"
    local policy=/usr/sbin/policy-rc.d
    local had_policy=0
    [ -e "$policy" ] && had_policy=1
    if [ "$had_policy" -eq 0 ]; then
        printf '#!/bin/sh\nexit 101\n' | $sudo tee "$policy" >/dev/null
        $sudo chmod +x "$policy"
    fi
    echo "Installing missing packages: etcd-server etcd-client" >&2
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq etcd-server etcd-client >/dev/null || {
        [ "$had_policy" -eq 0 ] && $sudo rm -f "$policy"
        return 1
    }
    [ "$had_policy" -eq 0 ] && $sudo rm -f "$policy"
    return 0
}
