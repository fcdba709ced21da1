# Shared by the bench scripts (sourced, not run): the repository root and how a path given on the
# command line is found.

bench_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo_root=$(cd "$bench_dir/../.." && pwd)

# A relative path is taken from the current directory, then from the repository root.
resolve() {
    if [[ $1 == /* ]]; then
        echo "$1"
    elif [[ -e $1 ]]; then
        echo "$PWD/$1"
    else
        echo "$repo_root/$1"
    fi
}
