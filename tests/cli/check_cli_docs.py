#!/usr/bin/env python3
"""--help, docs/cli.md and the man page name the same flags.

    check_cli_docs.py FORMATBENCH DOCS_CLI_MD MANPAGE

Reads every flag of `formatbench --help` and of `formatbench SUB --help` for
each subcommand that help lists, and checks, both ways:
  - docs/cli.md: each flag has a line "- `--flag ARG`: meaning" in the
    section "## Global options" or "## formatbench SUB"; each flag such a
    line documents exists (a flag every subcommand inherits, -h/--help, is
    documented once under "## Global options");
  - the man page: each flag is an entry of OPTIONS (global) or of the
    subsection "SUB" of COMMANDS, and nothing else is;
  - the exit statuses of `formatbench --help` are the rows of the table under
    "## Exit status" in docs/cli.md.
Each problem is one line that names the flag, the command and the place to
fix. The help, the Markdown and the roff are each read here with their own
small parser, not with scripts/make-manpage.py's.
"""
import re
import subprocess
import sys

FLAG = r'-{1,2}[A-Za-z0-9][A-Za-z0-9_-]*'


def run_help(fb, *sub):
    return subprocess.run([fb, *sub, '--help'], check=True, capture_output=True, text=True).stdout


def help_blocks(text):
    """{'Options': [lines], 'Subcommands': [...], ...} of one --help."""
    blocks, current = {}, None
    for line in text.splitlines():
        m = re.match(r'^([A-Z][^:]*):$', line)
        if m:
            current = blocks.setdefault(m.group(1), [])
        elif current is not None and line.startswith('  ') and line[2:3].strip():
            current.append(line[2:])
    return blocks


def help_flags(text):
    flags = set()
    for entry in help_blocks(text).get('Options', []):
        m = re.match(r'^(%s(?:,%s)*)(?:\s|$)' % (FLAG, FLAG), entry)
        if not m:
            raise SystemExit('cannot read this option line of --help: %r' % entry)
        flags.update(m.group(1).split(','))
    return flags


def doc_sections(path):
    """{section: {flag: line number}} for '## Global options' ('') and '## formatbench SUB'."""
    sections, current, other = {}, None, []
    with open(path, encoding='utf-8') as f:
        for number, line in enumerate(f, 1):
            m = re.match(r'^## (.*?)\s*$', line)
            if m:
                title = m.group(1)
                if title == 'Global options':
                    current = sections.setdefault('', {})
                elif title.startswith('formatbench '):
                    current = sections.setdefault(title[len('formatbench '):], {})
                else:
                    current = None
                    other.append(title)
                continue
            m = re.match(r'^- `([^`]+)`:', line)
            if current is not None and m:
                for alternative in m.group(1).split(', '):
                    word = alternative.split(' ')[0]
                    if re.fullmatch(FLAG, word):
                        current[word] = number
    return sections, other


def unroff(s):
    s = re.sub(r'\\f[BIRP]', '', s)
    return s.replace('\\-', '-').replace('\\e', '\\').replace('\\&', '')


def man_sections(path):
    """{section: set of flags}: OPTIONS as '', each .SS of COMMANDS by name."""
    sections, current, in_commands = {}, None, False
    lines = open(path, encoding='utf-8').read().splitlines()
    for i, line in enumerate(lines):
        if line.startswith('.SH '):
            name = unroff(line[4:]).strip('"')
            in_commands = name == 'COMMANDS'
            current = sections.setdefault('', set()) if name == 'OPTIONS' else None
        elif line.startswith('.SS ') and in_commands:
            current = sections.setdefault(unroff(line[4:]).strip('"'), set())
        elif line == '.TP' and current is not None and i + 1 < len(lines):
            term = unroff(lines[i + 1])
            for alternative in term.split(', '):
                word = alternative.split(' ')[0]
                if re.fullmatch(FLAG, word):
                    current.add(word)
    return sections


def main():
    fb, docs_path, man_path = sys.argv[1:4]
    problems = []
    top = run_help(fb)
    subcommands = [re.split(r'\s', e)[0] for e in help_blocks(top).get('Subcommands', [])]
    if not subcommands:
        raise SystemExit('no subcommands in `formatbench --help`')
    helps = {'': help_flags(top)}
    for sub in subcommands:
        helps[sub] = help_flags(run_help(fb, sub))

    docs, _ = doc_sections(docs_path)
    man = man_sections(man_path)

    def command(sub):
        return 'formatbench' + (' ' + sub if sub else '')

    def section(sub):
        return '"## formatbench %s"' % sub if sub else '"## Global options"'

    for sub, flags in helps.items():
        if sub not in docs:
            problems.append('%s: no section %s for `%s` (its flags: %s)'
                            % (docs_path, section(sub), command(sub), ' '.join(sorted(flags))))
            documented = {}
        else:
            documented = docs[sub]
        for flag in sorted(flags):
            inherited = sub and flag in helps[''] and flag in docs.get('', {})
            if flag not in documented and not inherited:
                problems.append('%s: `%s %s` is in `%s --help` but not documented: add a line '
                                '"- `%s ...`: what it does" under %s'
                                % (docs_path, command(sub), flag, command(sub), flag, section(sub)))
        for flag, number in sorted(documented.items()):
            if flag not in flags:
                problems.append('%s:%d: `%s` is documented under %s, but `%s --help` has no such flag'
                                % (docs_path, number, flag, section(sub), command(sub)))
        in_man = man.get(sub)
        if in_man is None:
            problems.append('%s: no %s for `%s`' % (man_path, 'subsection %s of COMMANDS' % sub if sub
                                                     else 'section OPTIONS', command(sub)))
            continue
        for flag in sorted(flags - in_man):
            problems.append('%s: `%s %s` is in `%s --help` but not in the man page (rebuild: ninja)'
                            % (man_path, command(sub), flag, command(sub)))
        for flag in sorted(in_man - flags):
            problems.append('%s: `%s %s` is in the man page but not in `%s --help`'
                            % (man_path, command(sub), flag, command(sub)))
    for sub in sorted(set(docs) - set(helps)):
        problems.append('%s: section %s documents a subcommand `formatbench --help` does not list'
                        % (docs_path, section(sub)))
    for sub in sorted(set(man) - set(helps)):
        problems.append('%s: subsection %s of COMMANDS is not a subcommand of `formatbench --help`'
                        % (man_path, sub))

    # Exit statuses: the footer of `formatbench --help` against the table of docs/cli.md.
    statuses = {re.split(r'\s', e)[0] for e in help_blocks(top).get('Exit status', [])}
    if not statuses:
        problems.append('`formatbench --help` lists no exit status')
    text = open(docs_path, encoding='utf-8').read()
    m = re.search(r'^## Exit status\n(.*?)(?=^## |\Z)', text, re.M | re.S)
    documented = set(re.findall(r'^\| (\d+) \|', m.group(1), re.M)) if m else set()
    for status in sorted(statuses - documented, key=int):
        problems.append('%s: exit status %s (in `formatbench --help`) is not a row under "## Exit status"'
                        % (docs_path, status))
    for status in sorted(documented - statuses, key=int):
        problems.append('%s: exit status %s is documented but `formatbench --help` does not list it'
                        % (docs_path, status))

    for p in problems:
        print('FAIL: ' + p)
    count = sum(len(f) for f in helps.values())
    print('%s: %d flags of %d commands, %d exit statuses checked against %s and %s'
          % ('FAIL' if problems else 'ok', count, len(helps), len(statuses), docs_path, man_path))
    return 1 if problems else 0


if __name__ == '__main__':
    sys.exit(main())
