# Sourced by dev-support scripts that run from a module's folder: paths given as options are the
# caller's, relative to where the command was typed.
# absolute_paths "--opt1 --opt2" "$@" sets the array ARGS to the arguments, the values of the
# listed options made absolute against the current directory.
absolute_paths() {
  local options=" $1 "
  shift
  ARGS=()
  while (($#)); do
    if [[ $options == *" $1 "* ]] && (($# > 1)); then
      if [[ $2 = /* ]]; then ARGS+=("$1" "$2"); else ARGS+=("$1" "$PWD/$2"); fi
      shift 2
    else
      ARGS+=("$1")
      shift
    fi
  done
}
