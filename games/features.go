package games

// Feature names one number a position is described by for a learned
// evaluation, and says what it measures.
type Feature struct {
	Name string
	Doc  string
}

// Featurer is implemented by games whose positions are described by named
// features from one seat's view (FeatureState), the inputs of an
// evaluation learned per variant (playtest learn). Features lists them in
// the order AppendFeatures writes them; HandWeights are the weights that
// make them the game's hand heuristic: for every position not yet over,
// Heuristic.Evaluate(seat) equals Σ HandWeights[i]·features[i], so a
// learned evaluation starts from the hand one and can only add to it.
type Featurer interface {
	Features() []Feature
	HandWeights() []float64
}

// FeatureState is implemented by the states of Featurer games.
// AppendFeatures appends the position's features as seat sees it to buf
// and returns it: only what seat may know (its own goal or hand, never the
// other's), so a determinisation for seat leaves them unchanged. It
// allocates nothing when buf has room.
type FeatureState interface {
	AppendFeatures(buf []float64, seat Player) []float64
}

// FeaturePairState is implemented by FeatureStates that give both seats'
// features in one pass: AppendFeaturePair appends seat's features and
// then the other seat's, each exactly as AppendFeatures gives them (a
// lead reads both, and they are made of the same counts). The conformance
// suite checks the pair against two AppendFeatures calls.
type FeaturePairState interface {
	AppendFeaturePair(buf []float64, seat Player) []float64
}
