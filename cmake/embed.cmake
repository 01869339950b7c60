# Turns a text asset into a C array (a string literal would pass C's 4095-byte limit under
# -Wpedantic). Usage: cmake -DIN=file -DOUT=file.c -DSYMBOL=name -P embed.cmake
file(READ "${IN}" hex HEX)
string(LENGTH "${hex}" hexlen)
math(EXPR len "${hexlen} / 2")
string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," body "${hex}")
string(REGEX REPLACE "(0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,)" "\\1\n" body "${body}")
file(WRITE "${OUT}" "/* generated from ${IN} by cmake/embed.cmake: do not edit */\n#include <stddef.h>\nconst unsigned char ${SYMBOL}[] = {\n${body}0x00};\nconst size_t ${SYMBOL}_len = ${len};\n")
