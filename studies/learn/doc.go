// Package learn fits an evaluation per variant (sim/model) from the
// variant's own games, as Texel's tuning method does: positions from
// self-play (the quiet ones where the game has forcing moves), each
// labelled with the result of its game for the seat to move (a draw ½),
// and a logistic regression of that result on the position's features
// with an L2 penalty, held-out deals for calibration: log-loss, Brier
// score and a reliability table against the constant predictor and the
// hand heuristic through its best-fitting logistic. Everything follows
// from the seed: the games from the runner's streams, the fit from the
// positions in game order, so one worker or two give the same model.
package learn
