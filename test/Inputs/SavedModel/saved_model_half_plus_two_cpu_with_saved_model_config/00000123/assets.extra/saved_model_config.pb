
w
P
$
placeholder_model_name
model_name(
placeholder_model_nametarget_address#!
placeholder_model_named"I
G
4type.googleapis.com/tensorflow.tfrt_stub.TestConfig1
test config 1