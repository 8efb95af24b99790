# Sourced by dev-support scripts that run from a module's folder: paths given as options are the
# caller's, relative to where the command was typed.
# absolute_paths "--opt1 --opt2" "$@" sets the array ARGS to the arguments, the values of the
# listed options made absolute against the current directory (each path of a comma-separated
# list).
absolute_paths() {
  local options=" $1 "
  shift
  ARGS=()
  while (($#)); do
    if [[ $options == *" $1 "* ]] && (($# > 1)); then
      local paths=() path
      IFS=, read -r -a paths <<< "$2"
      for path in "${!paths[@]}"; do
        [[ ${paths[$path]} = /* ]] || paths[$path]="$PWD/${paths[$path]}"
      done
      ARGS+=("$1" "$(IFS=,; echo "${paths[*]}")")
      shift 2
    else
      ARGS+=("$1")
      shift
    fi
  done
}
