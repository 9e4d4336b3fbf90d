// Package tune searches a space of rule settings (a sweep's axes) for the
// variant whose seat balance is closest to even, racing the candidates:
// rounds of games on common seeds, each round's games doubling, and a
// candidate dropped as soon as its games show it less balanced than the
// best, so that most games go to the candidates still in the race.
package tune
