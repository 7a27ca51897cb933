// Package sheet is what Fray knows of character sheets without knowing a
// ruleset: a ruleset describes its stat block (Schema) so that pages
// render, read (forms) and compare (Diff) any ruleset's sheets, and
// declares the values a character keeps from one encounter to the next
// (Carrier), whose arithmetic — reading them out of stats, proposing the
// change a fight made, writing it back — lives here too.
//
// It stands beside the engine, not in it: deciding and applying commands
// never needs a sheet's form or a carry-over. Rulesets import it for the
// interfaces they implement (Schemaer, Deriver, Carrier); prep, carry,
// the store, the server and the pages for the rest.
package sheet
