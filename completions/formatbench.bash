# bash completion for formatbench: subcommands, flags, plugin ids, ready
# study names and plugin option names. Nothing is listed here: the command
# being completed is asked as you press TAB (`formatbench SUB --help` for
# subcommands, flags and study names; `formatbench plugins --json` for plugin
# ids and options), so the completion always matches the binary it completes.
# Uses only bash builtins (no bash-completion helpers), so it also works when
# sourced from ~/.bashrc. Installed as
# <datadir>/bash-completion/completions/formatbench.

# _formatbench_help CMD [SUB]: the entries of `CMD [SUB] --help`, one per
# line: "BLOCK<TAB>LEFT<TAB>DESCRIPTION", e.g. "Options<TAB>-o,--output FILE<TAB>...",
# "Positionals<TAB>ID TEXT<TAB>...", "Subcommands<TAB>run<TAB>...".
_formatbench_help() {
    local line block=
    while IFS= read -r line; do
        if [[ $line =~ ^([A-Z][^:]*):$ ]]; then
            block=${BASH_REMATCH[1]}
        # CLI11 indents entries by two spaces; LEFT never holds two spaces in a row.
        elif [[ -n $block && $line =~ ^\ \ ([^\ ]([^\ ]|\ [^\ ])*)(\ \ +(.*))?$ ]]; then
            printf '%s\t%s\t%s\n' "$block" "${BASH_REMATCH[1]}" "${BASH_REMATCH[4]}"
        fi
    done < <("$@" --help 2>/dev/null)
}

# _formatbench_flags CMD [SUB]: every flag name (-o, --output, ...).
_formatbench_flags() {
    local block left flags
    while IFS=$'\t' read -r block left _; do
        [[ $block == Options ]] || continue
        flags=${left%% *}
        printf '%s\n' ${flags//,/ }
    done < <(_formatbench_help "$@")
}

# _formatbench_flag_argument CMD SUB FLAG: prints the argument FLAG takes
# ("FILE", "DIR", "TEXT:{table,json,markdown}"), nothing for a flag without
# one; fails for an unknown flag. SUB's flags first, then the global ones.
_formatbench_flag_argument() {
    local cmd=$1 sub=$2 flag=$3 block left flags name
    local -a context=("$cmd")
    [[ -n $sub ]] && context+=("$sub")
    while true; do
        while IFS=$'\t' read -r block left _; do
            [[ $block == Options ]] || continue
            flags=${left%% *}
            for name in ${flags//,/ }; do
                if [[ $name == "$flag" ]]; then
                    [[ $left == *' '* ]] && printf '%s\n' "${left#* }"
                    return 0
                fi
            done
        done < <(_formatbench_help "${context[@]}")
        ((${#context[@]} > 1)) || return 1
        context=("$cmd")
    done
}

# _formatbench_plugins CMD [--plugin-path DIR]...: lines "ID" and
# "ID OPTION" from `plugins --json` (pretty-printed, keys sorted: a plugin's
# "id" comes before its "options", and "name" is only an option's key).
_formatbench_plugins() {
    local line id=
    while IFS= read -r line; do
        if [[ $line =~ ^\ *\"id\":\ \"([^\"]*)\" ]]; then
            id=${BASH_REMATCH[1]}
            printf '%s\n' "$id"
        elif [[ $line =~ ^\ *\"name\":\ \"([^\"]*)\" ]]; then
            printf '%s %s\n' "$id" "${BASH_REMATCH[1]}"
        fi
    done < <("$@" plugins --json 2>/dev/null)
}

# The ready studies, as `run --help` names them: "... ready study (a, b, c)".
_formatbench_studies() {
    local block left description
    while IFS=$'\t' read -r block left description; do
        [[ $block == Positionals && $left == STUDY* && $description =~ ready\ study\ \(([^\)]*)\) ]] || continue
        printf '%s\n' ${BASH_REMATCH[1]//,/ }
    done < <(_formatbench_help "$1" run)
}

_formatbench_files() { # _formatbench_files CUR [GLOB...]: folders, and files matching a GLOB
    local cur=$1 f g
    shift
    (($#)) || set -- '*'
    compopt -o filenames 2>/dev/null
    while IFS= read -r f; do
        if [[ -d $f ]]; then
            COMPREPLY+=("$f/")
            compopt -o nospace 2>/dev/null
        else
            for g in "$@"; do
                if [[ ${f##*/} == $g ]]; then
                    COMPREPLY+=("$f")
                    break
                fi
            done
        fi
    done < <(compgen -f -- "$cur")
}

_formatbench() {
    local cur=${COMP_WORDS[COMP_CWORD]} prev=
    ((COMP_CWORD > 0)) && prev=${COMP_WORDS[COMP_CWORD - 1]}
    local cmd=${COMP_WORDS[0]}
    [[ $cmd == '~/'* ]] && cmd=$HOME/${cmd#'~/'}
    COMPREPLY=()

    # The subcommand: the first word that is neither a flag nor a flag's argument.
    local sub= i word argument
    local -a plugin_path=()
    for ((i = 1; i < COMP_CWORD; i++)); do
        word=${COMP_WORDS[i]}
        if [[ $word == -* ]]; then
            [[ $word == --plugin-path ]] && plugin_path+=(--plugin-path "${COMP_WORDS[i + 1]}")
            [[ $word == --plugin-path=* ]] && plugin_path+=("$word")
            [[ $word == *=* ]] && continue
            argument=$(_formatbench_flag_argument "$cmd" "$sub" "$word") || continue
            [[ -n $argument ]] && ((i++))
        elif [[ -z $sub ]]; then
            sub=$word
        fi
    done

    # The argument of a flag, by what it takes.
    if [[ $prev == -* ]] && argument=$(_formatbench_flag_argument "$cmd" "$sub" "$prev") &&
        [[ -n $argument ]]; then
        case $argument in
        *'{'*'}'*)
            local choices=${argument#*\{}
            choices=${choices%%\}*}
            COMPREPLY=($(compgen -W "${choices//,/ }" -- "$cur"))
            ;;
        DIR*) _formatbench_files "$cur" '' ;;
        FILE*) _formatbench_files "$cur" ;;
        KEY=VALUE*)
            # --set formats.N.options.NAME=: the option names of every plugin found
            if [[ $cur =~ ^(formats\.[0-9]+\.options\.) ]]; then
                local prefix=${BASH_REMATCH[1]} names
                names=$(_formatbench_plugins "$cmd" "${plugin_path[@]}" | while read -r _ o; do
                    [[ -n $o ]] && printf '%s=\n' "$o"
                done | sort -u)
                COMPREPLY=($(compgen -P "$prefix" -W "$names" -- "${cur#"$prefix"}"))
                compopt -o nospace 2>/dev/null
            fi
            ;;
        esac
        return 0
    fi

    if [[ $cur == -* ]]; then
        local flags
        flags=$(_formatbench_flags "$cmd")
        [[ -n $sub ]] && flags+=$'\n'$(_formatbench_flags "$cmd" "$sub")
        COMPREPLY=($(compgen -W "$(sort -u <<<"$flags")" -- "$cur"))
        return 0
    fi

    case $sub in
    '')
        local block left subs=
        while IFS=$'\t' read -r block left _; do
            [[ $block == Subcommands ]] && subs+=" $left"
        done < <(_formatbench_help "$cmd")
        COMPREPLY=($(compgen -W "$subs" -- "$cur"))
        ;;
    describe | check-plugin)
        COMPREPLY=($(compgen -W "$(_formatbench_plugins "$cmd" "${plugin_path[@]}" | grep -v ' ')" -- "$cur"))
        [[ $sub == check-plugin ]] && _formatbench_files "$cur" '*.so' 'fb_*.py'
        ;;
    run | plan)
        COMPREPLY=($(compgen -W "$(_formatbench_studies "$cmd")" -- "$cur"))
        _formatbench_files "$cur" '*.y*ml'
        ;;
    compare | report) _formatbench_files "$cur" '*.json' ;;
    esac
    return 0
}

complete -F _formatbench formatbench
