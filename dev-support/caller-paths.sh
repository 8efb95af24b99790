# Sourced by dev-support scripts that run from a module's folder: paths given as options are the
# caller's, relative to where the command was typed.
# absolute_paths "--opt1 --opt2 --opt3*" "$@" sets the array ARGS to the arguments, the values of
# the listed options made absolute against the current directory; an option listed with a
# trailing * takes a comma-separated list of paths, each made absolute.
absolute_paths() {
  local options=" $1 "
  shift
  ARGS=()
  while (($#)); do
    if (($# > 1)) && [[ $options == *" $1 "* ]]; then
      ARGS+=("$1" "$(absolute_path "$2")")
      shift 2
    elif (($# > 1)) && [[ $options == *" $1* "* ]]; then
      ARGS+=("$1" "$(absolute_path_list "$2")")
      shift 2
    else
      ARGS+=("$1")
      shift
    fi
  done
}

absolute_path() {
  if [[ $1 = /* ]]; then printf '%s' "$1"; else printf '%s' "$PWD/$1"; fi
}

absolute_path_list() {
  local rest=$1 list=""
  while :; do
    list+=${list:+,}$(absolute_path "${rest%%,*}")
    [[ $rest == *,* ]] || break
    rest=${rest#*,}
  done
  printf '%s' "$list"
}
