package qp

// For the external tests.
const SparsePoolFrom = sparsePoolFrom
