# bash completion for foldsvg
_foldsvg()
{
    local cur prev
    cur=${COMP_WORDS[COMP_CWORD]}
    prev=${COMP_WORDS[COMP_CWORD-1]}
    case "$prev" in
        -c|--colors)
            COMPREPLY=($(compgen -W "hot mem io wakeup java js perl python rust red green blue aqua yellow purple orange" -- "$cur")); return ;;
        --bgcolors)
            COMPREPLY=($(compgen -W "yellow blue green grey" -- "$cur")); return ;;
        --format)
            COMPREPLY=($(compgen -W "svg folded html" -- "$cur")); return ;;
        --top-format)
            COMPREPLY=($(compgen -W "text markdown json" -- "$cur")); return ;;
        --weight)
            COMPREPLY=($(compgen -W "auto samples" -- "$cur")); return ;;
        --fonttype)
            COMPREPLY=($(compgen -W "monospace serif sans-serif cursive fantasy" -- "$cur")); return ;;
        -o|--output|--nameattr|--palette-map)
            COMPREPLY=($(compgen -f -- "$cur")); return ;;
        --title|--subtitle|--countname|--nametype|--notes|--fontsize|--fontwidth|--height|--width|--minwidth|--factor|--base|--uicolor|--search-color|--stroke-color|--id-prefix|--thread|--strip|--include|--exclude|--focus|--top|--per|--sort-buffer|--event-filter|--skip-after)
            return ;;
    esac
    if [[ "$cur" == -* ]]; then
        COMPREPLY=($(compgen -W "$(foldsvg --help 2>/dev/null | grep -oE -- '--[a-z][a-z-]*' | sort -u) -o -c -i -q -v -h -V" -- "$cur"))
        return
    fi
    COMPREPLY=($(compgen -f -- "$cur"))
}
complete -o filenames -F _foldsvg foldsvg
