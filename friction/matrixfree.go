package friction

// ReadsNormals implements mech.MatrixFreeG: Alg. 3 reads G only through
// mech.Problem's methods (ApplyImpulses), which read it through Normals.
func (o *MaxDissipation) ReadsNormals() bool { return true }

// ReadsKnownRel implements mech.MatrixFreeRel: Alg. 3 reads DRel only
// through Problem.HasDRel and DRelAt.
func (o *MaxDissipation) ReadsKnownRel() bool { return true }
