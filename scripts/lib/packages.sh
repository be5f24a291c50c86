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
