# bash completion for foldsvg. Option names, and which options take a value, come from the
# program itself (foldsvg --list-options); the value words below are checked against what
# each option accepts by tests/options.sh.
_foldsvg()
{
    local cur prev table
    cur=${COMP_WORDS[COMP_CWORD]}
    prev=${COMP_WORDS[COMP_CWORD-1]}
    case "$prev" in
        -c|--colors)
            COMPREPLY=($(compgen -W "hot mem io wakeup java js perl python rust red green blue aqua yellow purple orange" -- "$cur")); return ;;
        --bgcolors)
            COMPREPLY=($(compgen -W "yellow blue green grey" -- "$cur")); return ;;
        --format)
            COMPREPLY=($(compgen -W "svg folded html speedscope" -- "$cur")); return ;;
        --top-format)
            COMPREPLY=($(compgen -W "text markdown json" -- "$cur")); return ;;
        --weight)
            COMPREPLY=($(compgen -W "auto samples" -- "$cur")); return ;;
        --theme)
            COMPREPLY=($(compgen -W "auto light dark" -- "$cur")); return ;;
        --fonttype)
            COMPREPLY=($(compgen -W "monospace serif sans-serif cursive fantasy" -- "$cur")); return ;;
        -o|--output|--nameattr|--palette-map|--facts-out|--facts-from)
            COMPREPLY=($(compgen -f -- "$cur")); return ;;
    esac
    table=$(foldsvg --list-options 2>/dev/null)
    # any other option that takes a value: nothing to offer
    if [[ "$prev" == -* ]] && printf '%s\n' "$table" | awk -F'\t' -v p="$prev" \
        '$3 == 1 && ("--" $1 == p || ($2 != "" && "-" $2 == p)) { found = 1 } END { exit !found }'; then
        return
    fi
    if [[ "$cur" == -* ]]; then
        COMPREPLY=($(compgen -W "$(printf '%s\n' "$table" | awk -F'\t' '{ print "--" $1; if ($2 != "") print "-" $2 }' | sort -u)" -- "$cur"))
        return
    fi
    COMPREPLY=($(compgen -f -- "$cur"))
}
complete -o filenames -F _foldsvg foldsvg
