#!/usr/bin/env python3
# Writes a small x86-64 ELF whose offset 0x1000 holds code (mov byte [rdi], 1; ret) named by a
# function symbol, sound or with hostile headers, for tests/symbols_attack.sh.
# usage: make-hostile-elf.py KIND SYMBOL OUT
#   good     sound: one PT_LOAD of the whole file, .text, .symtab naming SYMBOL at 0x1000
#   huge     .symtab and .strtab claim 1 TiB each, at offsets near the end of the file
#   overlap  .symtab over the ELF header and the whole file, its .strtab itself, .text over
#            the section headers, the section-name table the symbol table
#   shnum    65535 section headers, most past the end of the file, shstrndx past them all
#   names    names past the end of .strtab or running unterminated to the end of the file,
#            a symbol of size 2^63 over the code
# The layout is the ELF specification's (Elf64_Ehdr, Elf64_Phdr, Elf64_Shdr, Elf64_Sym).
import struct
import sys

PAGE = 0x1000
CODE = b'\xc6\x07\x01\xc3'


def shdr(name, stype, flags, addr, off, size, link=0, info=0, align=1, entsize=0):
    return struct.pack('<IIQQQQIIQQ', name, stype, flags, addr, off, size, link, info, align,
                       entsize)


def sym(name, info, shndx, value, size):
    return struct.pack('<IBBHQQ', name, info, 0, shndx, value, size)


def build(kind, symbol):
    shstr = b'\0.text\0.symtab\0.strtab\0.shstrtab\0'
    n_text, n_symtab, n_strtab, n_shstr = 1, 7, 15, 23
    strtab = b'\0' + symbol.encode() + b'\0'
    syms = sym(0, 0, 0, 0, 0) + sym(1, 0x12, 1, PAGE, len(CODE))
    if kind == 'names':
        syms += sym(0xfffffff0, 0x12, 1, PAGE, 2) + sym(len(strtab), 0x12, 1, PAGE, 1 << 63)
    body = bytearray(3 * PAGE)
    body[PAGE:PAGE + len(CODE)] = CODE
    symoff = PAGE + 0x100
    stroff = symoff + len(syms)
    shstroff = stroff + len(strtab) + 8
    shoff = 2 * PAGE
    body[symoff:symoff + len(syms)] = syms
    body[stroff:stroff + len(strtab)] = strtab
    body[shstroff:shstroff + len(shstr)] = shstr
    size = len(body)
    st_size, str_size = len(syms), len(strtab)
    sections = [shdr(0, 0, 0, 0, 0, 0),
                shdr(n_text, 1, 6, PAGE, PAGE, len(CODE), align=16),
                shdr(n_symtab, 2, 0, 0, symoff, st_size, link=3, info=1, align=8, entsize=24),
                shdr(n_strtab, 3, 0, 0, stroff, str_size),
                shdr(n_shstr, 3, 0, 0, shstroff, len(shstr))]
    shnum, shstrndx = len(sections), 4
    if kind == 'huge':
        sections[2] = shdr(n_symtab, 2, 0, 0, size - 48, 1 << 40, link=3, info=1, align=8,
                           entsize=24)
        sections[3] = shdr(n_strtab, 3, 0, 0, size - 16, 1 << 40)
    elif kind == 'overlap':
        sections[1] = shdr(n_text, 1, 6, PAGE, shoff, size, align=16)
        sections[2] = shdr(n_symtab, 2, 0, 0, 0, size, link=2, info=0, align=8, entsize=24)
        sections[3] = shdr(n_strtab, 3, 0, 0, 0, size)
        shstrndx = 2
    elif kind == 'shnum':
        shnum, shstrndx = 0xffff, 0xfffe
    elif kind == 'names':
        # .strtab from its start to the end of the file, with no NUL after the last name
        body[size - 8:] = b'AAAAAAAA'
        sections[3] = shdr(n_strtab, 3, 0, 0, stroff, size - stroff)
    elif kind != 'good':
        raise SystemExit('make-hostile-elf.py: no kind %s' % kind)
    sh = b''.join(sections)
    body[shoff:shoff + len(sh)] = sh
    ehdr = b'\x7fELF\x02\x01\x01' + b'\0' * 9
    ehdr += struct.pack('<HHIQQQIHHHHHH', 3, 62, 1, 0, 64, shoff, 0, 64, 56, 1, 64, shnum,
                        shstrndx)
    phdr = struct.pack('<IIQQQQQQ', 1, 5, 0, 0, 0, size, size, PAGE)
    body[0:len(ehdr)] = ehdr
    body[64:64 + len(phdr)] = phdr
    return bytes(body)


if __name__ == '__main__':
    with open(sys.argv[3], 'wb') as f:
        f.write(build(sys.argv[1], sys.argv[2]))
