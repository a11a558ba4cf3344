"""Pure markup pieces with no state of the table: escaping, card faces, the board, charts, the QR
code, spoken sentences and the rules text. They import only the engine."""
