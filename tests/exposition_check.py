#!/usr/bin/env python3
# A strict checker of the Prometheus text format 0.0.4 and OpenMetrics 1.0, for pmctop's exporter.
#
#   exposition_check.py prometheus|openmetrics FILE   exit 0 when FILE is valid, else 1 and why
#   ... --samples                                     also print each sample as NAME LABELS VALUE
#
# Stricter than the formats where pmctop promises more: no timestamps, no blank lines, HELP and
# TYPE for every family before its samples, a family's samples together, no series twice.
import re
import sys

NAME = re.compile(r'[a-zA-Z_:][a-zA-Z0-9_:]*\Z')
LABEL = re.compile(r'[a-zA-Z_][a-zA-Z0-9_]*\Z')
NUMBER = re.compile(r'[+-]?(?:[0-9]+(?:\.[0-9]*)?(?:[eE][+-]?[0-9]+)?|\.[0-9]+(?:[eE][+-]?[0-9]+)?'
                    r'|Inf|NaN)\Z')
TYPES = {
    'prometheus': {'counter', 'gauge', 'histogram', 'summary', 'untyped'},
    'openmetrics': {'counter', 'gauge', 'histogram', 'gaugehistogram', 'stateset', 'info',
                    'summary', 'unknown'},
}
# the sample names each OpenMetrics type allows, as suffixes of the family name
SUFFIXES = {
    'counter': ('_total', '_created'),
    'gauge': ('',),
    'info': ('_info',),
    'unknown': ('',),
}


class Invalid(Exception):
    pass


def parse_labels(text, pos, line):
    """Parse {a="b",...} at text[pos]; returns (labels as a list of pairs, position after)."""
    labels = []
    assert text[pos] == '{'
    pos += 1
    if text[pos:pos + 1] == '}':
        return labels, pos + 1
    while True:
        m = re.compile(r'[a-zA-Z_][a-zA-Z0-9_]*').match(text, pos)
        if not m:
            raise Invalid('line %d: bad label name at column %d' % (line, pos + 1))
        name = m.group(0)
        pos = m.end()
        if text[pos:pos + 2] != '="':
            raise Invalid('line %d: label %s needs ="' % (line, name))
        pos += 2
        value = []
        while True:
            if pos >= len(text):
                raise Invalid('line %d: label value of %s not closed' % (line, name))
            c = text[pos]
            if c == '"':
                pos += 1
                break
            if c == '\\':
                esc = text[pos + 1:pos + 2]
                if esc not in ('\\', '"', 'n'):
                    raise Invalid('line %d: bad escape \\%s in label %s' % (line, esc, name))
                value.append({'\\': '\\', '"': '"', 'n': '\n'}[esc])
                pos += 2
                continue
            if c == '\n':
                raise Invalid('line %d: raw newline in label %s' % (line, name))
            value.append(c)
            pos += 1
        if name in (n for n, _ in labels):
            raise Invalid('line %d: label %s twice' % (line, name))
        labels.append((name, ''.join(value)))
        if text[pos:pos + 1] == ',':
            pos += 1
            if text[pos:pos + 1] == '}':
                return labels, pos + 1  # a trailing comma is allowed
            continue
        if text[pos:pos + 1] == '}':
            return labels, pos + 1
        raise Invalid('line %d: expected , or } after label %s' % (line, name))


def family_of(fmt, name, families):
    """The family a sample name belongs to (OpenMetrics names families without suffixes)."""
    if fmt == 'prometheus':
        return name
    for fam, meta in families.items():
        for suffix in SUFFIXES.get(meta.get('type', 'unknown'), ('',)):
            if name == fam + suffix:
                return fam
    return None


def check(fmt, data):
    try:
        text = data.decode('utf-8')
    except UnicodeDecodeError as e:
        raise Invalid('not UTF-8: %s' % e)
    if not text.endswith('\n'):
        raise Invalid('the last line has no newline')
    lines = text[:-1].split('\n')
    if fmt == 'openmetrics':
        if lines[-1] != '# EOF':
            raise Invalid('OpenMetrics must end with "# EOF"')
        lines = lines[:-1]
    families = {}   # name -> {'type':, 'help':, 'unit':, 'samples': bool}
    done = set()    # families whose samples are over
    current = None
    series = set()
    samples = []
    for i, raw in enumerate(lines, 1):
        if raw == '':
            raise Invalid('line %d: blank line' % i)
        if raw.startswith('#'):
            parts = raw.split(' ', 3)
            if fmt == 'openmetrics' and raw == '# EOF':
                raise Invalid('line %d: "# EOF" before the end' % i)
            if len(parts) >= 3 and parts[0] == '#' and parts[1] in ('HELP', 'TYPE', 'UNIT'):
                kind, name = parts[1], parts[2]
                rest = parts[3] if len(parts) > 3 else ''
                if kind == 'UNIT' and fmt != 'openmetrics':
                    raise Invalid('line %d: UNIT is OpenMetrics only' % i)
                if not NAME.match(name):
                    raise Invalid('line %d: bad metric name %r' % (i, name))
                meta = families.setdefault(name, {})
                if name in done or meta.get('samples'):
                    raise Invalid('line %d: %s of %s after its samples' % (i, kind, name))
                if kind.lower() in meta:
                    raise Invalid('line %d: second %s of %s' % (i, kind, name))
                if kind == 'TYPE':
                    if rest not in TYPES[fmt]:
                        raise Invalid('line %d: unknown type %r' % (i, rest))
                    if fmt == 'prometheus' and rest == 'counter' and not name.endswith('_total'):
                        raise Invalid('line %d: counter %s does not end in _total' % (i, name))
                    if fmt == 'openmetrics' and rest == 'counter' and name.endswith('_total'):
                        raise Invalid('line %d: OpenMetrics names counter %s without _total'
                                      % (i, name))
                if kind == 'HELP':
                    if not rest:
                        raise Invalid('line %d: empty HELP for %s' % (i, name))
                    if re.search(r'\\[^\\n"]', rest) or rest.endswith('\\'):
                        raise Invalid('line %d: bad escape in HELP of %s' % (i, name))
                if kind == 'UNIT' and not name.endswith('_' + rest):
                    raise Invalid('line %d: %s does not end in its unit %s' % (i, name, rest))
                meta[kind.lower()] = rest
                if current and current != name:
                    done.add(current)
                current = name
                continue
            if fmt == 'openmetrics':
                raise Invalid('line %d: OpenMetrics allows no other comments' % i)
            continue
        m = re.compile(r'[a-zA-Z_:][a-zA-Z0-9_:]*').match(raw)
        if not m:
            raise Invalid('line %d: bad sample name' % i)
        name = m.group(0)
        pos = m.end()
        labels = []
        if raw[pos:pos + 1] == '{':
            labels, pos = parse_labels(raw, pos, i)
        if raw[pos:pos + 1] != ' ':
            raise Invalid('line %d: expected one space before the value' % i)
        rest = raw[pos + 1:].split(' ')
        if len(rest) != 1:
            raise Invalid('line %d: a timestamp or extra field: %r' % (i, raw[pos + 1:]))
        if not NUMBER.match(rest[0]):
            raise Invalid('line %d: bad value %r' % (i, rest[0]))
        value = float(rest[0].replace('Inf', 'inf').replace('NaN', 'nan'))
        fam = family_of(fmt, name, families)
        if fam is None or fam not in families:
            raise Invalid('line %d: sample %s of no declared family' % (i, name))
        meta = families[fam]
        if 'type' not in meta or 'help' not in meta:
            raise Invalid('line %d: family %s lacks HELP or TYPE' % (i, fam))
        if fam in done:
            raise Invalid('line %d: samples of %s apart from the others' % (i, fam))
        if current and current != fam:
            done.add(current)
        current = fam
        meta['samples'] = True
        if meta['type'] == 'counter' and (value != value or value < 0):
            raise Invalid('line %d: counter %s is %s' % (i, name, rest[0]))
        if meta['type'] == 'info' and value != 1:
            raise Invalid('line %d: info %s is not 1' % (i, name))
        key = (name, tuple(sorted(labels)))
        if key in series:
            raise Invalid('line %d: series %s%s twice' % (i, name, dict(labels)))
        series.add(key)
        samples.append((name, dict(labels), value))
    for fam, meta in families.items():
        if 'type' not in meta or 'help' not in meta:
            raise Invalid('family %s lacks HELP or TYPE' % fam)
    return samples


def main():
    args = [a for a in sys.argv[1:] if not a.startswith('--')]
    if len(args) != 2 or args[0] not in TYPES:
        print(__doc__ or 'usage: exposition_check.py prometheus|openmetrics FILE', file=sys.stderr)
        return 2
    with open(args[1], 'rb') as f:
        data = f.read()
    try:
        samples = check(args[0], data)
    except Invalid as e:
        print('%s: %s' % (args[1], e), file=sys.stderr)
        return 1
    if '--samples' in sys.argv:
        for name, labels, value in samples:
            print('%s\t%s\t%r' % (name, ','.join('%s=%s' % kv for kv in sorted(labels.items())),
                                      value))
    return 0


if __name__ == '__main__':
    sys.exit(main())
