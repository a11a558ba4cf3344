"""The screens besides the table: New game, Your record, Challenge, Puzzle, Scorekeeper. Each
package holds a screen (its state, clicks and keys) and its view (pure markup)."""
