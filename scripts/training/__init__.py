"""The evaluation's trainers: the network that plays (`train_net`, with its data reader and
weights writer `train_net_data`) and the Texel tuning of the hand-written terms (`tune`)."""
