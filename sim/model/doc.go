// Package model is an evaluation learned for one variant: a logistic model
// of the chance that the seat to move wins, σ(bias + Σ w_i·φ_i), over the
// features its game names (games.Featurer), fitted by playtest learn
// (studies/learn) and kept in model.json. Search bots read it through
// Evaluate, which reports the learned logit in the hand heuristic's units
// (divided by the scale that best fits the hand heuristic to the same
// results), so their noise, temperature and eval_scale keep their meaning.
package model
