"""Expert iteration: a policy-value network learns from search, then guides it (``az:N``)."""
